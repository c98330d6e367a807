// Reads the libFuzzer logs of one scripts/fuzz.sh run and writes its record (JSON): inputs run,
// coverage (libFuzzer's cov = edges hit, ft = features), corpus size, speed, and every crash,
// timeout or leak with its reproducer path. Usage: node tests/fuzz/summarize.mjs OUT.json META.json LOG...
import fs from 'node:fs';

const [outFile, metaFile, ...logs] = process.argv.slice(2);
const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
const workers = logs.map((log) => {
  const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
  const lines = text.split('\n');
  const stat = (name) => {
    const m = text.match(new RegExp(`^stat::${name}:\\s+(\\d+)`, 'm'));
    return m ? Number(m[1]) : null;
  };
  // Status lines look like "#123456\tpulse  cov: 1234 ft: 5678 corp: 90/12Kb exec/s: 321 rss: 100Mb".
  let last = null;
  for (const l of lines) {
    const m = l.match(/^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+)(?: corp: (\d+)\/\S+)?.*?(?:exec\/s: (\d+))?/);
    if (m) last = { runs: Number(m[1]), cov: Number(m[2]), ft: Number(m[3]), corpus: m[4] ? Number(m[4]) : null };
  }
  const done = text.match(/^Done (\d+) runs in (\d+) second/m);
  const findings = [];
  for (const m of text.matchAll(/^SUMMARY: (\w+): ([^\n]*)/gm)) findings.push({ sanitizer: m[1], summary: m[2] });
  const artifacts = [...text.matchAll(/Test unit written to (\S+)/g)].map((m) => m[1]);
  const deadly = text.match(/^==\d+== ERROR: libFuzzer: (\w[\w-]*)/m);
  return {
    log,
    runs: stat('number_of_executed_units') ?? (done ? Number(done[1]) : last?.runs ?? 0),
    seconds: done ? Number(done[2]) : null,
    exec_per_s: stat('average_exec_per_sec'),
    cov: last?.cov ?? null,
    ft: last?.ft ?? null,
    corpus: last?.corpus ?? null,
    peak_rss_mb: stat('peak_rss_mb'),
    libfuzzer_error: deadly ? deadly[1] : null,
    sanitizer_summaries: findings,
    reproducers: artifacts,
  };
});

const record = {
  ...meta,
  runs_total: workers.reduce((s, w) => s + w.runs, 0),
  cov_max: Math.max(0, ...workers.map((w) => w.cov ?? 0)),
  ft_max: Math.max(0, ...workers.map((w) => w.ft ?? 0)),
  crashes: workers.flatMap((w) => w.reproducers.map((r) => ({ reproducer: r, log: w.log, error: w.libfuzzer_error, summaries: w.sanitizer_summaries }))),
  workers,
};
record.ok = record.crashes.length === 0 && workers.every((w) => !w.libfuzzer_error && w.sanitizer_summaries.length === 0);
fs.writeFileSync(outFile, JSON.stringify(record, null, 2) + '\n');
console.log(`fuzz: ${record.runs_total} inputs, cov ${record.cov_max}, ft ${record.ft_max}, ` +
  `${record.crashes.length} crash(es) -> ${outFile}`);
for (const c of record.crashes) console.log(`fuzz: reproducer ${c.reproducer} (${c.error ?? 'crash'}; log ${c.log})`);
