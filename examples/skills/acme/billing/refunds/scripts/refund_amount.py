"""Compute the refundable amount of an order: items delivered within the window."""
import json
import sys
from datetime import date, timedelta

WINDOW = timedelta(days=30)


def refundable(order: dict, today: date) -> float:
    total = 0.0
    for item in order["items"]:
        delivered = date.fromisoformat(item["delivered"])
        if today - delivered <= WINDOW:
            total += item["price"] * item["quantity"]
    return round(total, 2)


if __name__ == "__main__":
    print(refundable(json.load(sys.stdin), date.today()))
