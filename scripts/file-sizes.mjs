#!/usr/bin/env node
// `npm run lint:sizes` (in npm test): no source file over 400 lines, so that each can be held in
// mind and read in one sitting (one concept per file: ARCHITECTURE.md). Generated code is left
// out (packages/client/src/generated); so is what is not TypeScript or JavaScript.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const LIMIT = 400;
const GENERATED = [/\/generated\//];
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx', '*.mjs', '*.js', '*.cjs'], { encoding: 'utf8' })
  .split('\n').filter(Boolean).filter((f) => !GENERATED.some((re) => re.test(f)));
const over = files
  .map((file) => {
    try {
      return { file, lines: readFileSync(file, 'utf8').split('\n').length - 1 };
    } catch {
      return { file, lines: 0 }; // listed by git, deleted in the working tree
    }
  })
  .filter((f) => f.lines > LIMIT)
  .sort((a, b) => b.lines - a.lines);
for (const { file, lines } of over) console.error(`${file}: ${lines} lines, over ${LIMIT}: split it by concept`);
if (over.length) process.exit(1);
console.log(`file sizes: ${files.length} source files, none over ${LIMIT} lines`);
