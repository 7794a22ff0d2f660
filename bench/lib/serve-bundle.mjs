// The local service from a bundle of src/ (server-bundle.mjs) on a free port, as `svc dev --data FILE
// --api-key KEY` runs it, with the store on the driver named: for server-trigger.mjs to compare the
// drivers on the same code. Prints {"baseUrl": …} on its first line; SIGINT closes it.
//   node bench/lib/serve-bundle.mjs --data FILE --api-key KEY [--driver better-sqlite3|node:sqlite]
import { arg, loadServer } from './server-bundle.mjs';

const { createLocalService } = await loadServer(undefined, [], arg('driver'));
const svc = createLocalService({ data: arg('data'), apiKey: arg('api-key') });
await svc.app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${svc.app.server.address().port}` })}\n`);
process.on('SIGINT', () => svc.close().then(() => process.exit(0)));
