#!/usr/bin/env node
// Writes every ```yaml block of seed 004 (the PPE specification) to corpus/seed004/, verbatim, one file per
// block: NN-name.ai.yaml, or the file name the specification gives the block (scripts that others call or
// inherit by that name).   node conformance/ppe/extract-seed004.mjs /path/to/seeds/004_*.txt
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const names = [
  'dialogue', 'dialogue-list', 'test', 'guide', 'char_translator', 'char-dobby', 'translator', 'dobby-template',
  'dobby-prompt', 'prompt-priority', 'joke', 'invocation-calculator', 'invocation-file', 'harry-potter',
  'regex-replacement', 'list-expression', 'calculator', 'joke-translator', 'dobby-char', 'char', 'tools-array',
  'tools-object', 'weather', 'permissions', 'logit-bias', 'package-export', 'basic-config', 'import-one',
  'import-many', 'import-object', 'export', 'prompt-config', 'model-parameters', 'llm-stream', 'expression',
  'prompt-directive', 'parameters-directive', 'ai-directive', 'abort', 'pipe-list', 'pipe', 'fn', 'fn-require',
  'fn-python', 'fn-template', 'exec', 'if', 'match', 'while', 'for-count', 'for-list', 'for-object', 'format',
  'set-get', 'events', 'event-expression', 'emit',
];
// Blocks the specification names as files (others call or inherit them by that name).
const named = new Set(['test', 'guide', 'char_translator', 'char-dobby', 'translator', 'list-expression',
  'calculator', 'char', 'weather']);
const seed = fs.readFileSync(process.argv[2], 'utf8').split('\n');
const out = path.join(here, 'corpus', 'seed004');
fs.mkdirSync(out, {recursive: true});
let block = null;
let n = 0;
for (const line of seed) {
  if (block === null && line.startsWith('```yaml')) {
    block = [];
  } else if (block !== null && line.startsWith('```')) {
    const name = names[n];
    const file = named.has(name) ? `${name}.ai.yaml` : `${String(n + 1).padStart(2, '0')}-${name}.ai.yaml`;
    fs.writeFileSync(path.join(out, file), block.join('\n') + '\n');
    n++;
    block = null;
  } else if (block !== null) {
    block.push(line);
  }
}
if (n !== names.length) throw new Error(`expected ${names.length} blocks, found ${n}`);
console.log(`${n} blocks written to ${out}`);
