/**
 * `subscriptions/listen` streams are shared out per client: one client (one address, or one
 * authenticated client id) holds at most `maxListenStreamsPerClient`, the endpoint at most
 * `maxListenStreams`, and every stream ends after `listenLifetimeMs` with its closing result.
 * Before, the 1024 streams were one pool: one address took all of them in seconds and every other
 * client was refused for as long as it stayed. The client's address is the framework's
 * (`request.ip`, `req.ip`), so it honours the app's trusted-proxy setting and nothing else.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import { memoryStorage, OptionError } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { type AddressedStream, clientAddress, listenFrom } from '../support/addresses.js';
import { listenExpressSkills, listenFastify } from '../support/apps.js';

const TAG = 'io.modelcontextprotocol/subscriptionId';
const SKILLS = { 'alpha/SKILL.md': '---\nname: alpha\ndescription: Alpha.\n---\nbody\n' };
const FRAMEWORKS = ['fastify', 'express'] as const;
type Framework = (typeof FRAMEWORKS)[number];

interface Limits {
  maxListenStreams?: number;
  maxListenStreamsPerClient?: number;
  listenLifetimeMs?: number;
}

/** The skills endpoint on `framework`, stateless, with `limits`; `trustProxy` sets Fastify's `trustProxy` or Express's `trust proxy`. */
async function serve(framework: Framework, limits: Limits, trustProxy = false): Promise<{ url: string; close(): Promise<void> }> {
  const options = { storage: memoryStorage(SKILLS), onWarning: () => {}, ...limits };
  if (framework === 'fastify') {
    const app = Fastify({ trustProxy });
    await app.register(skillsPlugin, options);
    return listenFastify(app);
  }
  const app = express();
  app.set('trust proxy', trustProxy);
  const skills = skillsMiddleware(options);
  const served = await listenExpressSkills(app, skills);
  await skills.ready;
  return served;
}

/** Whether a listen stream was granted (its acknowledgement came), or the error it was refused with. */
async function outcome(stream: AddressedStream): Promise<'open' | { status: number; code: number; message: string }> {
  const first = await stream.frame(1);
  if (first.method === 'notifications/subscriptions/acknowledged') return 'open';
  await stream.ended;
  assert.ok(first.error, `neither an acknowledgement nor an error: ${JSON.stringify(first)}`);
  return { status: stream.status, code: first.error.code, message: first.error.message };
}

/** Open `count` streams one after another (each on its own connection) and say how each went. */
async function openMany(url: string, count: number, from: Parameters<typeof listenFrom>[1], opened: AddressedStream[]) {
  const outcomes: Awaited<ReturnType<typeof outcome>>[] = [];
  for (let i = 0; i < count; i++) {
    const stream = await listenFrom(url, from, `listen:${i}`);
    opened.push(stream);
    outcomes.push(await outcome(stream));
  }
  return outcomes;
}

for (const framework of FRAMEWORKS) {
  describe(`listen shares, ${framework}`, () => {
    test('one client is refused past its share while another still listens; the total is capped too', async (t) => {
      const app = await serve(framework, { maxListenStreamsPerClient: 3, maxListenStreams: 5 });
      const opened: AddressedStream[] = [];
      t.after(async () => {
        for (const s of opened) s.close();
        await app.close();
      });
      const first = await openMany(app.url, 5, { localAddress: clientAddress(1) }, opened);
      assert.deepEqual(first.slice(0, 3), ['open', 'open', 'open']);
      for (const refused of first.slice(3)) {
        assert.notEqual(refused, 'open');
        const { status, code, message } = refused as Exclude<typeof refused, 'open'>;
        assert.equal(status, 200);
        assert.equal(code, -32603);
        assert.match(message, /^Too many subscription streams: this client already holds 3 subscriptions\/listen streams/);
        assert.match(message, /close one it no longer needs/);
      }
      // Another address gets its own share, up to the endpoint's total of 5.
      const second = await openMany(app.url, 3, { localAddress: clientAddress(2) }, opened);
      assert.deepEqual(second.slice(0, 2), ['open', 'open']);
      assert.deepEqual(second[2], {
        status: 200,
        code: -32603,
        message: 'Internal error: this server already holds 5 subscription streams, its limit; try again later',
      });

      // A stream the client ends gives its slot back, to the same client.
      opened[0]!.close();
      const deadline = Date.now() + 20_000;
      let again: Awaited<ReturnType<typeof outcome>>;
      do {
        const stream = await listenFrom(app.url, { localAddress: clientAddress(1) }, 'listen:again');
        opened.push(stream);
        again = await outcome(stream);
      } while (again !== 'open' && Date.now() < deadline);
      assert.equal(again, 'open', 'the server forgets a stream whose client left');
    });

    test('a stream ends with its closing result when its lifetime is up, and its slot is free again', async (t) => {
      const app = await serve(framework, { maxListenStreamsPerClient: 1, listenLifetimeMs: 400 });
      const opened: AddressedStream[] = [];
      t.after(async () => {
        for (const s of opened) s.close();
        await app.close();
      });
      const started = Date.now();
      const stream = await listenFrom(app.url, { localAddress: clientAddress(1) }, 'listen:life');
      opened.push(stream);
      assert.equal((await stream.frame(1)).method, 'notifications/subscriptions/acknowledged');
      // While it lives, the client's one slot is taken.
      const extra = await listenFrom(app.url, { localAddress: clientAddress(1) }, 'listen:extra');
      opened.push(extra);
      assert.notEqual(await outcome(extra), 'open');

      const last = await stream.frame(2, 30_000);
      const lived = Date.now() - started;
      await stream.ended;
      assert.equal(last.id, 'listen:life');
      assert.equal(last.result.resultType, 'complete');
      assert.equal(last.result._meta[TAG], 'listen:life');
      assert.equal(typeof last.result._meta['io.modelcontextprotocol/serverInfo'].name, 'string');
      assert.equal(stream.frames.length, 2, 'nothing after the closing result');
      assert.ok(lived >= 360, `the stream lived ${lived} ms, less than nine tenths of its 400 ms lifetime`);

      const next = await listenFrom(app.url, { localAddress: clientAddress(1) }, 'listen:next');
      opened.push(next);
      assert.equal(await outcome(next), 'open', 'the ended stream no longer counts');
    });

    test('with the trusted-proxy setting each forwarded client has its own share; without it a forged X-Forwarded-For gains nothing', async (t) => {
      const opened: AddressedStream[] = [];
      t.after(() => {
        for (const s of opened) s.close();
      });
      const trusting = await serve(framework, { maxListenStreamsPerClient: 2 }, true);
      t.after(() => trusting.close());
      // One socket address (127.0.0.1, the proxy), two forwarded clients.
      const alice = await openMany(trusting.url, 3, { headers: { 'x-forwarded-for': '203.0.113.10' } }, opened);
      assert.deepEqual(alice.slice(0, 2), ['open', 'open']);
      assert.notEqual(alice[2], 'open');
      const bob = await openMany(trusting.url, 2, { headers: { 'x-forwarded-for': '203.0.113.20' } }, opened);
      assert.deepEqual(bob, ['open', 'open']);

      const plain = await serve(framework, { maxListenStreamsPerClient: 2 });
      t.after(() => plain.close());
      const forged = [];
      for (let i = 0; i < 4; i++) {
        const stream = await listenFrom(plain.url, { localAddress: clientAddress(3), headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } }, i);
        opened.push(stream);
        forged.push(await outcome(stream));
      }
      assert.deepEqual(forged.slice(0, 2), ['open', 'open']);
      assert.notEqual(forged[2], 'open', 'a new X-Forwarded-For value is not a new client when no proxy is trusted');
      assert.notEqual(forged[3], 'open');
    });

    test('the listen options are checked at start-up', async () => {
      const cases: [Limits, RegExp][] = [
        [{ maxListenStreams: 0 }, /option "maxListenStreams" must be a positive integer, got 0/],
        [{ maxListenStreamsPerClient: 2.5 }, /option "maxListenStreamsPerClient" must be a positive integer, got 2.5/],
        [{ listenLifetimeMs: '60000' as never }, /option "listenLifetimeMs" must be a positive integer \(milliseconds\), got "60000"/],
        [{ listenLifetimeMs: 2 ** 31 }, /option "listenLifetimeMs" must be at most 2147483647 \(about 24 days\), got 2147483648/],
      ];
      for (const [limits, message] of cases) {
        await assert.rejects(
          serve(framework, limits),
          (error: unknown) => {
            assert.ok(error instanceof OptionError, String(error));
            assert.match(error.message, new RegExp(`^@skillmount/${framework}: `));
            assert.match(error.message, message);
            return true;
          },
          JSON.stringify(limits),
        );
      }
    });
  });
}
