// What an object literal costs by how it is written, on the V8 this Node runs: the forms the models
// use to build trace records and statuses. On Node 20 (V8 11.3) a copy made by spreading an object
// that is not frozen ({ ...x }) is slow to add a property to, about 1 µs a property, whether the
// property is written in the same literal ({ ...x, uid }) or stored later (o.uid = ...); spreading a
// frozen object, copying with Object.assign({}, x) or writing the fields out costs tens of ns. Each
// line is the median of five timings of a loop (wall time, so read it at a quiet moment or compare
// lines of one run). A developer tool: nothing here touches the simulator.
//
//   node --import tsx scripts/spread-cost.ts
const N = 200_000;
const A = { pod: "default/a" };
const B = { pod: "default/b" };
const FA = Object.freeze({ pod: "default/a" });
const FB = Object.freeze({ pod: "default/b" });
const fresh = (x: { pod: string }) => ({ pod: x.pod });
let sink = 0;

type Make = (x: { pod: string }, i: number) => Record<string, unknown>;
const forms: [string, Make, { pod: string }, { pod: string }][] = [
  ["{ ...x } alone", (x) => ({ ...x }), A, B],
  ["{ ...x, uid } (x not frozen)", (x, i) => ({ ...x, uid: i }), A, B],
  ["{ ...fresh(x), uid }", (x, i) => ({ ...fresh(x), uid: i }), A, B],
  ["o = { ...x }; o.uid = i", (x, i) => { const o: Record<string, unknown> = { ...x }; o.uid = i; return o; }, A, B],
  ["{ ...x, pod: i } (a key x has)", (x, i) => ({ ...x, pod: String(i) }), A, B],
  ["{ ...x, uid } (x frozen)", (x, i) => ({ ...x, uid: i }), FA, FB],
  ["Object.assign({}, x); o.uid = i", (x, i) => { const o: Record<string, unknown> = Object.assign({}, x); o.uid = i; return o; }, A, B],
  ["{ pod: x.pod, uid } written out", (x, i) => ({ pod: x.pod, uid: i }), A, B],
  ["o = { pod: x.pod }; o.uid = i", (x, i) => { const o: Record<string, unknown> = { pod: x.pod }; o.uid = i; return o; }, A, B],
  // A frozen copy: freezing is a map transition too, so Object.freeze({ ...x }) of an unfrozen x
  // makes a new hidden class per object (every reader of such copies then misses its inline cache).
  ["Object.freeze({ ...x }) (x not frozen)", (x) => Object.freeze({ ...x }), A, B],
  ["Object.freeze({ ...x }) (x frozen)", (x) => Object.freeze({ ...x }), FA, FB],
  ["Object.freeze(Object.assign({}, x))", (x) => Object.freeze(Object.assign({}, x)), A, B],
  ["Object.freeze({ pod: x.pod }) written out", (x) => Object.freeze({ pod: x.pod }), A, B],
];

function time(make: Make, a: { pod: string }, b: { pod: string }): number {
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) sink += Object.keys(make(i & 1 ? a : b, i)).length;
    runs.push(Number(process.hrtime.bigint() - t0) / N);
  }
  return runs.sort((x, y) => x - y)[2]!;
}

console.log(`node ${process.version} (V8 ${process.versions.v8}), ns an object (median of 5 loops of ${N}):`);
for (const [name, make, a, b] of forms) console.log(`${time(make, a, b).toFixed(0).padStart(6)} ns  ${name}`);
if (sink < 0) console.log(sink);
