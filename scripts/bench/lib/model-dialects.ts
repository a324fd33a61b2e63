/**
 * The models benchmark's figures (scripts/bench/models.ts): measured by hand, not by
 * `npm run bench`, and kept here so that rewriting docs/benchmarks.md keeps them. Run it again
 * and update the tables and the date.
 */
export const MODEL_DIALECTS = `## Models people run

Each shipped data set through the whole service on each dialect of the model stand-in
(\`npx tsx --conditions=@xt/source scripts/bench/models.ts --dataset <set>\`: its own PostgreSQL,
Redis, one API and one worker; the stand-in in oracle mode, so it answers only from what reached
it, and each dialect behaves as a popular server does: [models](models.md#the-servers)). Goal:
the same pipeline recall as the OpenAI path, whatever the dialect; a small window costs calls and
tokens, never values. Measured 2026-12-06 on the shared 2-core machine.

| Data set | Dialect | Pipeline recall | Calls | Tokens | Probe calls | Probe tokens | What the probe found |
| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |
| invoices-text (8) | OpenAI | 100.0% | 8 | 7,523 | 0 | 0 | taken at its word |
| | Ollama, 4,096-token window cutting silently | 100.0% | 8 | 7,587 | 2 | 455 | json_schema, context 4,096 |
| | json_schema refused, json_object taken | 100.0% | 8 | 10,197 | 3 | 465 | json_object |
| | response_format ignored, JSON in a fence | 100.0% | 8 | 10,218 | 3 | 647 | prompt |
| | logprobs, prompt_cache_key, max_completion_tokens refused | 100.0% | 8 | 7,575 | 3 | 440 | json_schema, no logprobs |
| | no vision | 100.0% | 8 | 7,589 | 1 | 144 | json_schema, no images |
| | 4k, no vision, json_object only | 100.0% | 8 | 10,211 | 2 | 151 | json_object, no images, context 4,096 |
| statements (4: 25 to 2,000 rows) | OpenAI | 100.0% | 5 | 104,389 | 0 | 0 | taken at its word |
| | Ollama, 4,096-token window cutting silently | 100.0% | 82 | 276,508 | 2 | 455 | json_schema, context 4,096 |
| | json_schema refused, json_object taken | 100.0% | 5 | 105,853 | 3 | 465 | json_object |
| | response_format ignored, JSON in a fence | 100.0% | 5 | 105,867 | 3 | 647 | prompt |
| | logprobs, prompt_cache_key, max_completion_tokens refused | 100.0% | 5 | 104,421 | 3 | 440 | json_schema, no logprobs |
| | no vision | 100.0% | 5 | 104,431 | 1 | 144 | json_schema, no images |
| | 4k, no vision, json_object only | 100.0% | 82 | 300,355 | 2 | 151 | json_object, no images, context 4,096 |

Every dialect reads every value the OpenAI path reads. What a dialect costs: the schema written
into the prompt (json_object and prompt modes) adds about 35% to a short invoice's tokens and
1.4% to a long statement's; a 4,096-token window sends a 2,000-row statement as 82 calls instead
of 5, 2.6 to 2.9 times the tokens (each call carries the instructions and schema again, and its
answer is capped at a quarter of the window, so long lists continue more often). A probe costs 1
to 3 calls and 144 to 647 tokens once per model and day, paid by the service. Latencies are left
out: the stand-in answers at once, and the first rows of each run include the worker warming up.

A server that works one request at a time (llama.cpp with one slot, told as \`total_slots\`), 1 s a
call, given a backlog of 40 extractions by two worker processes at once
(\`npx tsx --conditions=@xt/source scripts/bench/slots.ts\`, after one extraction that probed it):

| Extractions | Calls | Wall (s) | Slot busy while the backlog lasted | Most queued at the server | Abandoned |
| ---: | ---: | ---: | ---: | ---: | ---: |
| 40 | 40 | 41.2 | 97.6% | 0 | 0 |

The physical limit of a model-bound service is its server's slots: 40 one-second calls on one
slot take 40 s, and the backlog took 41.2 s, every call the server began answered and read.
`;
