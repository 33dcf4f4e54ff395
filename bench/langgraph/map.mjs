// The LangGraph.js side of AdaptiveConcurrencyBench: a map as a Send fan-out, each element one GET of the
// same loopback service planvm's map calls. Started by the bench (interleaved with planvm's runs), or by hand:
//
//   npm ci --prefix bench/langgraph
//   node bench/langgraph/map.mjs URL N [RETRIES]
//
// Prints one JSON line: {"wall_ms", "answered", "failed", "error"}. RETRIES > 1 gives the node LangGraph's own
// retry policy (exponential backoff from 500 ms, as planvm's default; LangGraph does not read Retry-After);
// without it a refused element fails the graph, as LangGraph does by default. The wall time is the graph's
// invoke only (node start-up excluded).
import { Annotation, END, Send, START, StateGraph } from "@langchain/langgraph";

const [url, count, retries] = process.argv.slice(2);
const n = Number(count);
const attempts = Number(retries ?? "1");

const State = Annotation.Root({
  items: Annotation({ reducer: (_, next) => next, default: () => [] }),
  results: Annotation({ reducer: (all, more) => all.concat(more), default: () => [] }),
});

async function work(state) {
  const answer = await fetch(url + "?i=" + state.item);
  if (!answer.ok) {
    throw new Error("HTTP " + answer.status);
  }
  return { results: [await answer.json()] };
}

const graph = new StateGraph(State)
  .addNode(
    "work",
    work,
    attempts > 1
      ? { retryPolicy: { maxAttempts: attempts, initialInterval: 500, backoffFactor: 2, jitter: true, retryOn: () => true } }
      : {},
  )
  .addConditionalEdges(START, (state) => state.items.map((item) => new Send("work", { item })))
  .addEdge("work", END)
  .compile();

const items = Array.from({ length: n }, (_, i) => i);
const start = performance.now();
let out;
try {
  const final = await graph.invoke({ items }, { recursionLimit: 10_000 });
  out = { wall_ms: performance.now() - start, answered: final.results.length, failed: false, error: null };
} catch (e) {
  out = { wall_ms: performance.now() - start, answered: 0, failed: true, error: String(e.message ?? e) };
}
console.log(JSON.stringify(out));
