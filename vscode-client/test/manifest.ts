import * as fs from 'node:fs';
import * as path from 'node:path';

// The extension's package.json, read from the source tree (tests run from out/test/).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const manifest: any = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'),
);
