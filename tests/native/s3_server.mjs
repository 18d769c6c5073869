// An S3-compatible server for the storage tests (SERVICES.md, "S3-compatible server for tests"):
// @20minutes/s3rver, which checks AWS Signature V4 (a wrong secret answers 403 SignatureDoesNotMatch).
// Usage: node s3_server.mjs <port> <directory> <bucket>; prints `ready` once it listens. Key and secret:
// S3RVER / S3RVER.
import S3rver from '@20minutes/s3rver';

const [port, directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  directory,
  silent: true,
  configureBuckets: [{name: bucket}],
});
await server.run();
console.log('ready');
// Stop cleanly when the test ends the process.
process.on('SIGTERM', async () => {
  await server.close();
  process.exit(0);
});
