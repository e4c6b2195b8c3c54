"""Fill a PDF form's fields from a JSON object: fill_form.py in.pdf values.json out.pdf"""
import json
import sys

from pypdf import PdfReader, PdfWriter


def main(source: str, values_path: str, target: str) -> None:
    reader = PdfReader(source)
    writer = PdfWriter()
    writer.append(reader)
    with open(values_path, encoding="utf-8") as handle:
        values = json.load(handle)
    for page in writer.pages:
        writer.update_page_form_field_values(page, values)
    with open(target, "wb") as out:
        writer.write(out)


if __name__ == "__main__":
    main(*sys.argv[1:4])
