// count.mjs: tokens of each file named on the command line (gpt-tokenizer, o200k_base, the
// version pinned in package-lock.json), one "bytes tokens path" line per file.
import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

for (const path of process.argv.slice(2)) {
  const text = readFileSync(path, 'utf8');
  console.log(`${Buffer.byteLength(text)} ${encode(text).length} ${path}`);
}
