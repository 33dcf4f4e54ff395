/**
 * Records what the reference Idyll engine (idyllic-labs/idyll-engine) reports for every document of
 * this corpus, with deterministic fake functions (the same as IdyllFunctions.java), into
 * reports/NAME.json. It imports the engine from a checkout; the engine's code is not part of planvm.
 *
 *   git clone <idyll-engine> /work/ref/idyll && cd /work/ref/idyll
 *   npm install --no-save date-fns@3 uuid@11 xml-js zod@3 tsx
 *   IDYLL_ENGINE=/work/ref/idyll npx tsx PATH/TO/record.ts
 */
import { readFileSync, writeFileSync, readdirSync, mkdirSync } from 'fs';
import { dirname, join } from 'path';
import { fileURLToPath } from 'url';
import { z } from 'zod';

const engine = process.env.IDYLL_ENGINE ?? '/work/ref/idyll';
const here = dirname(fileURLToPath(import.meta.url));
const { parseXmlToAst } = await import(join(engine, 'src/grammar/parser/index.ts'));
const { DocumentExecutor } = await import(join(engine, 'src/document/executor.ts'));
const { extractCustomFunctions } = await import(join(engine, 'src/agent/custom-functions.ts'));

const fn = (schema: any, execute: any) => ({ schema, execute });
const values = (ctx: any) => Array.from(ctx.previousResults.values()) as any[];

/** The deterministic functions, by registry (IdyllFunctions.java has the same). */
const registries: Record<string, Record<string, any>> = {
  demo: {
    'demo:echo': fn(z.object({ message: z.string().optional(), uppercase: z.boolean().optional().default(false) }),
      (p: any, content: string, ctx: any) => {
        const text = p.message || content || 'No message provided';
        return { message: p.uppercase ? text.toUpperCase() : text, nodeId: ctx.currentNodeId };
      }),
    'demo:math': fn(z.object({ operation: z.enum(['add', 'subtract', 'multiply', 'divide']), a: z.number(), b: z.number() }),
      (p: any) => {
        let result: number;
        switch (p.operation) {
          case 'add': result = p.a + p.b; break;
          case 'subtract': result = p.a - p.b; break;
          case 'multiply': result = p.a * p.b; break;
          default: if (p.b === 0) throw new Error('Division by zero'); result = p.a / p.b;
        }
        return { operation: p.operation, a: p.a, b: p.b, result, expression: `${p.a} ${p.operation} ${p.b} = ${result}` };
      }),
    'demo:random': fn(z.object({ min: z.number().default(0), max: z.number().default(100), count: z.number().int().positive().default(1) }),
      (p: any) => {
        const numbers: number[] = [];
        for (let i = 0; i < p.count; i++) numbers.push(p.min + ((i * 37 + 11) % (p.max - p.min + 1)));
        return { numbers, min: p.min, max: p.max, count: p.count };
      }),
    'demo:fail': fn(z.object({ message: z.string().default('This function always fails'), code: z.string().default('DEMO_ERROR') }),
      (p: any) => { throw new Error(p.message); }),
    'demo:context': fn(z.object({}), (_: any, content: string, ctx: any) => {
      const all = values(ctx);
      const success = all.filter(r => r.success).length;
      return { currentNode: ctx.currentNodeId, previousExecutions: { total: all.length, success, failed: all.length - success },
        content: content || 'No content provided' };
    }),
    'demo:aggregate': fn(z.object({ operation: z.enum(['sum', 'average', 'concat']).default('sum') }),
      (p: any, _: string, ctx: any) => {
        const data = values(ctx).filter(r => r.success).map(r => r.data);
        if (data.length === 0) return { operation: p.operation, message: 'No previous successful results to aggregate', result: null };
        const pick = (t: string) => data.flatMap(d => typeof d === t ? [d]
          : (typeof d === 'object' && d !== null ? Object.values(d).filter(v => typeof v === t) : []));
        if (p.operation === 'concat') { const s = pick('string') as string[]; return { operation: 'concat', values: s, result: s.join(' ') }; }
        const n = pick('number') as number[]; const sum = n.reduce((a, b) => a + b, 0);
        if (p.operation === 'sum') return { operation: 'sum', values: n, result: sum };
        return { operation: 'average', values: n, sum, count: n.length, result: n.length > 0 ? sum / n.length : 0 };
      }),
    'demo:condition': fn(z.object({ check: z.enum(['has-errors', 'all-success', 'count-gt', 'count-lt']), value: z.number().optional() }),
      (p: any, _: string, ctx: any) => {
        const all = values(ctx); const hasErrors = all.some(r => !r.success); const allSuccess = all.every(r => r.success);
        const count = all.length; const v = p.value || 0; let met = false; let reason = '';
        switch (p.check) {
          case 'has-errors': met = hasErrors; reason = `Previous executions ${hasErrors ? 'had' : 'had no'} errors`; break;
          case 'all-success': met = allSuccess; reason = `Previous executions ${allSuccess ? 'were all' : 'were not all'} successful`; break;
          case 'count-gt': met = count > v; reason = `Previous execution count (${count}) ${met ? 'is greater than' : 'is not greater than'} ${v}`; break;
          default: met = count < v; reason = `Previous execution count (${count}) ${met ? 'is less than' : 'is not less than'} ${v}`;
        }
        return { check: p.check, conditionMet: met, reason, previousCount: count, message: met ? 'Condition met!' : 'Condition not met' };
      }),
  },
  test: {
    'test:greet': fn(z.object({ name: z.string() }), (p: any) => ({ greeting: `Hello, ${p.name}!` })),
    'test:fail': fn(z.object({}), () => { throw new Error('Function execution failed'); }),
  },
  agent: {
    'demo:echo': fn(z.object({ message: z.string() }), (p: any, content: string) => ({ echoed: content || p.message, message: p.message })),
    'demo:calculate': fn(z.object({ expression: z.string() }), (p: any) => {
      const m = /^\s*([\d.]+)\s*\*\s*([\d.]+)\s*(?:\+\s*([\d.]+))?\s*$/.exec(p.expression);
      return m ? { result: Number(m[1]) * Number(m[2]) + (m[3] ? Number(m[3]) : 0), expression: p.expression } : { error: 'Invalid expression' };
    }),
    'demo:time': fn(z.object({}), () => ({ time: '12:00:00 GMT+0000', date: 'Thu Nov 30 2023', iso: '2023-11-30T12:00:00.000Z' })),
  },
  research: {
    'web:search': fn(z.object({ maxResults: z.number().default(10) }), (p: any, content: string) => ({
      query: content,
      results: [
        { title: 'AI Breakthroughs 2024', url: 'https://example.com/ai-2024', snippet: 'Latest developments in AI...' },
        { title: 'Machine Learning Advances', url: 'https://example.com/ml', snippet: 'Recent ML research shows...' },
        { title: 'Neural Networks Update', url: 'https://example.com/nn', snippet: 'New architectures for...' },
      ].slice(0, p.maxResults),
      totalFound: 42,
    })),
    'ai:summarize': fn(z.object({ style: z.enum(['brief', 'detailed', 'bullet-points']).default('brief') }),
      (p: any, content: string, ctx: any) => {
        const previousCount = ctx.previousResults.size;
        if (p.style === 'bullet-points') {
          return { summary: [`• Processed ${previousCount} previous results`, '• Topics cover AI breakthroughs and ML advances',
            '• Focus on neural network architectures', `• ${content}`].join('\n') };
        }
        return { summary: `Based on the search results about "${content}", the latest developments include AI breakthroughs, ML advances, and new neural network architectures.` };
      }),
    'data:format': fn(z.object({ format: z.enum(['json', 'markdown', 'plain']).default('markdown') }),
      (p: any, content: string, ctx: any) => {
        const results = values(ctx).filter(r => r.success).map(r => r.data);
        if (p.format === 'json') return { formatted: JSON.stringify(results, null, 2) };
        if (p.format === 'markdown') return { formatted: `# Results\n\n${content}\n\n## Data\n\n\`\`\`json\n${JSON.stringify(results, null, 2)}\n\`\`\`` };
        return { formatted: String(results) };
      }),
  },
};

/** Every node of the AST by id, and the ids of the blocks inside function definitions. */
function index(nodes: any[], byId: Map<string, any>, inDefinition: Set<string>, inside = false) {
  for (const node of nodes ?? []) {
    byId.set(node.id, node);
    if (inside && node.type === 'function_call') inDefinition.add(node.id);
    index(node.children, byId, inDefinition, inside || node.type === 'function');
  }
}

function json(value: any, fnOf: (id: string) => string): any {
  if (value instanceof Map) {
    const entries = Array.from(value.entries());
    if (entries.every(([, v]) => v && typeof v === 'object' && 'success' in v)) {
      return entries.map(([id, r]) => node(id, r, fnOf));
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, json(v, fnOf)]));
  }
  if (Array.isArray(value)) return value.map(v => json(v, fnOf));
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    if ('functionName' in value && 'nodesExecuted' in value) {
      return { functionName: value.functionName, duration_ms: 0, nodesExecuted: value.nodesExecuted,
        nodesSucceeded: value.nodesSucceeded, nodesFailed: value.nodesFailed };
    }
    if ('variables' in value && 'nodes' in value && 'functionDefinition' in value) {
      return { variables: json(value.variables, fnOf), nodes: json(value.nodes, fnOf), metadata: json(value.metadata, fnOf) };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, json(v, fnOf)]));
  }
  return value;
}

function node(id: string, r: any, fnOf: (id: string) => string) {
  const out: any = { id, fn: fnOf(id), success: r.success };
  if (r.success) out.data = json(r.data, fnOf);
  else out.error = { message: r.error?.message };
  out.duration_ms = 0;
  return out;
}

const corpus = JSON.parse(readFileSync(join(here, 'corpus.json'), 'utf-8'));
mkdirSync(join(here, 'reports'), { recursive: true });
for (const file of readdirSync(join(here, 'documents')).filter(f => f.endsWith('.xml')).sort()) {
  const text = readFileSync(join(here, 'documents', file), 'utf-8');
  let record: any;
  try {
    const doc = parseXmlToAst(text);
    const byId = new Map<string, any>();
    const inDefinition = new Set<string>();
    index(doc.nodes, byId, inDefinition);
    const base = registries[corpus[file]];
    const functions = { ...base, ...extractCustomFunctions(doc, base) };
    const report = await new DocumentExecutor({ functions }).execute({ mode: 'document', document: doc, options: { functions } });
    const fnOf = (id: string) => byId.get(id)?.fn ?? '?';
    record = {
      nodes: json(report.nodes, fnOf),
      metadata: { nodesExecuted: report.metadata.nodesExecuted, nodesSucceeded: report.metadata.nodesSucceeded,
        nodesFailed: report.metadata.nodesFailed, totalDuration_ms: 0 },
    };
    if (inDefinition.size > 0) record.definitionBlocks = Array.from(inDefinition);
  } catch (e: any) {
    record = { refused: String(e.message).split('\n')[0].slice(0, 300) };
  }
  writeFileSync(join(here, 'reports', file.replace(/\.xml$/, '.json')), JSON.stringify(record, null, 2) + '\n');
  console.log(file, record.refused ? 'refused' : `${record.nodes.length} nodes`);
}
