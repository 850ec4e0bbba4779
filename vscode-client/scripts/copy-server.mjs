// Copies the server jar into the extension (server/graphmend.jar) at package time.
// Source: $GRAPHMEND_JAR, else ../server/target/graphmend.jar (built by `mvn package`).
import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.resolve(here, '..');
const src = process.env.GRAPHMEND_JAR
  ? path.resolve(process.env.GRAPHMEND_JAR)
  : path.resolve(ext, '..', 'server', 'target', 'graphmend.jar');
if (!fs.existsSync(src)) {
  console.error(`copy-server: ${src} does not exist; build it first (mvn -q -DskipTests package at the repository root) or set GRAPHMEND_JAR`);
  process.exit(1);
}
const head = Buffer.alloc(4);
const fd = fs.openSync(src, 'r');
fs.readSync(fd, head, 0, 4, 0);
fs.closeSync(fd);
if (head.readUInt32LE(0) !== 0x04034b50) {
  console.error(`copy-server: ${src} is not a jar (zip) file`);
  process.exit(1);
}
const dst = path.join(ext, 'server', 'graphmend.jar');
fs.mkdirSync(path.dirname(dst), { recursive: true });
fs.copyFileSync(src, dst);
console.log(`copy-server: ${src} -> ${path.relative(ext, dst)} (${fs.statSync(dst).size} bytes)`);
