#!/usr/bin/env node
// Records how the PPE reference (`ai run` of @offline-ai/cli) runs each script of the corpus against the
// deterministic LLM, for the conformance test to replay against planvm. See README.md beside this file.
//
//   node conformance/ppe/record.mjs --reference /path/to/installed/cli [--only ID_PREFIX]...
//
// For each entry of corpus.json that is not skipped it starts `ai run` on the script (with the entry's input),
// pointed at the deterministic LLM on 127.0.0.1 (DeterministicLlm.java, started here as a single source file),
// and writes recordings/<id>.json: the input, every LLM request in normal form with the answer it got, the
// result (or the error) and the exit status. Nothing leaves loopback: HOME and the XDG folders point into a
// temporary folder per run, so no configuration, chat history or cache of the user's is read or written.
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const fake = path.join(root, 'dialects/src/test/java/dev/planvm/dialects/internal/ppe/conformance/DeterministicLlm.java');
const TIMEOUT_MS = 180_000;

function options(argv) {
  const opts = {only: []};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--reference') opts.reference = path.resolve(argv[++i]);
    else if (argv[i] === '--only') opts.only.push(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!opts.reference) throw new Error('usage: record.mjs --reference DIR_OF_INSTALLED_CLI [--only ID_PREFIX]...');
  if (!fs.existsSync(path.join(opts.reference, 'bin/run.js'))) throw new Error(`${opts.reference}/bin/run.js not found`);
  return opts;
}

function startFake(log) {
  return new Promise((resolve, reject) => {
    const child = spawn('java', [fake, '0', log], {stdio: ['ignore', 'pipe', 'inherit']});
    let text = '';
    child.stdout.on('data', chunk => {
      text += chunk;
      const line = text.split('\n')[0];
      if (text.includes('\n')) resolve({child, port: Number(line.trim())});
    });
    child.on('exit', code => reject(new Error(`the deterministic LLM exited (${code})`)));
  });
}

function run(reference, script, input, port) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ppe-record-'));
  const capture = path.join(home, 'capture.json');
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    NO_COLOR: '1',
    PPE_APP: reference,
    PPE_CAPTURE: capture,
  };
  const args = ['--require', path.join(here, 'capture.cjs'), path.join(reference, 'bin/run.js'), 'run',
    '--no-banner', '--no-chats', '--no-stream', '-P', 'openai://fake', '-u', `http://127.0.0.1:${port}/v1`,
    '--apiKey', 'sk-fake', script];
  if (input !== undefined && input !== null) args.push(JSON.stringify(input));
  return new Promise(resolve => {
    const child = spawn('node', args, {cwd: path.dirname(script), env, stdio: ['ignore', 'pipe', 'pipe']});
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', c => { stdout += c; });
    child.stderr.on('data', c => { stderr += c; });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      let captured = null;
      if (fs.existsSync(capture)) captured = JSON.parse(fs.readFileSync(capture, 'utf8'));
      fs.rmSync(home, {recursive: true, force: true});
      resolve({code: code ?? (signal ? 128 : 1), signal, stdout, stderr, captured});
    });
  });
}

const plain = text => text.replace(/\u001b\[[0-9;]*m/g, '');

function lastLines(text, n) {
  return plain(text).split('\n').filter(l => l.trim() && !/^\s+at /.test(l)).slice(-n).join('\n');
}

async function main() {
  const opts = options(process.argv.slice(2));
  const corpus = JSON.parse(fs.readFileSync(path.join(here, 'corpus.json'), 'utf8'));
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ppe-llm-')), 'requests.jsonl');
  fs.writeFileSync(log, '');
  const {child, port} = await startFake(log);
  const out = path.join(here, 'recordings');
  fs.mkdirSync(out, {recursive: true});
  const version = JSON.parse(fs.readFileSync(path.join(opts.reference, 'package.json'), 'utf8')).version;
  try {
    for (const entry of corpus.scripts) {
      if (entry.skip) continue;
      if (opts.only.length && !opts.only.some(p => entry.id.startsWith(p))) continue;
      const offset = fs.statSync(log).size;
      const script = path.join(root, entry.script);
      const r = await run(opts.reference, script, entry.input, port);
      await new Promise(res => setTimeout(res, 200));
      const lines = fs.readFileSync(log).subarray(offset).toString('utf8').split('\n').filter(Boolean);
      const requests = lines.map(l => JSON.parse(l));
      const ok = r.code === 0 && r.captured?.status === 'ok';
      const recording = {
        id: entry.id,
        source: entry.source,
        script: entry.script,
        input: entry.input ?? null,
        reference: `@offline-ai/cli ${version}`,
        exit_code: r.code,
        status: ok ? 'ok' : 'error',
        result: ok ? r.captured.result : null,
        error: ok ? null : (r.captured?.error ?? lastLines(r.stderr || r.stdout, 6)),
        requests,
      };
      const file = path.join(out, entry.id + '.json');
      fs.mkdirSync(path.dirname(file), {recursive: true});
      fs.writeFileSync(file, JSON.stringify(recording, null, 2) + '\n');
      console.log(`${ok ? 'ok   ' : 'error'} ${entry.id} (${requests.length} requests)${ok ? '' : ': ' + recording.error.split('\n')[0]}`);
    }
  } finally {
    child.kill();
  }
}

main().catch(e => {
  console.error(e.message);
  process.exit(1);
});
