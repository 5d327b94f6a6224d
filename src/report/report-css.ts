/**
 * The HTML report's style sheet, inlined into the page: system fonts only (no web font to
 * fetch), print-friendly, and colour never the only signal (every mark is also ✓, ✗ or !).
 * Each model's own rules follow it (its html facet's `css`).
 */
export const REPORT_CSS = `
:root{--bg:#f5f6f8;--card:#fff;--text:#1f2430;--muted:#6b7280;--line:#e3e6eb;
--good:#15803d;--good-bg:#e7f6ec;--bad:#c81e1e;--bad-bg:#fdecec;--warn:#b45309;--warn-bg:#fdf3e1;
--mono:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);
font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1180px;margin:0 auto;padding:0 24px 48px}
code{font-family:var(--mono);font-size:.88em}
a{color:inherit}
.page-head{background:#1f2430;color:#fff;padding:22px 24px 20px;margin-bottom:24px}
.page-head>div{max-width:1180px;margin:0 auto}
.page-head h1{margin:0;font-size:22px;font-weight:650;letter-spacing:.01em}
.page-head h1 .brand{color:#9ad0ff}
.tally{margin:8px 0 0;color:#c9cdd6;display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.tally .pill{font-size:13px}
.good{color:var(--good)}.bad{color:var(--bad)}.warn{color:var(--warn)}.muted{color:var(--muted)}
.pill{display:inline-block;padding:1px 9px;border-radius:999px;border:1px solid var(--ink,#c9cdd6);
background:var(--fill,#fff);color:var(--ink,var(--text));font-size:12.5px;white-space:nowrap}
.pill.good{--fill:var(--good-bg);--ink:var(--good)}.pill.bad{--fill:var(--bad-bg);--ink:var(--bad)}
.pill.warn{--fill:var(--warn-bg);--ink:var(--warn)}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;
box-shadow:0 1px 2px rgba(16,24,40,.05)}
table{border-collapse:collapse}
.summary{overflow:hidden;margin-bottom:28px}
.summary table{width:100%}
.summary th,.summary td{padding:9px 14px;text-align:left;border-bottom:1px solid var(--line);vertical-align:top}
.summary thead th{font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);
background:#fafbfc;font-weight:600}
.summary tbody tr:last-child td{border-bottom:0}
.summary td.file{font-family:var(--mono);font-size:13.5px;word-break:break-all}
.summary td.file a{text-decoration:none;border-bottom:1px dotted var(--muted)}
.num{text-align:right!important;font-variant-numeric:tabular-nums}
.mark{font-weight:700;width:1.5em}
.journal{padding:20px 24px 24px;margin-bottom:28px;border-left:5px solid var(--good)}
.journal.fails{border-left-color:var(--bad)}
.journal.passes-with-warnings{border-left-color:var(--warn)}
.journal h2{margin:0 0 4px;font-size:18px;display:flex;gap:10px;align-items:center;flex-wrap:wrap}
.journal h2 .file{font-family:var(--mono);font-size:16px;word-break:break-all}
.journal h3{margin:22px 0 10px;font-size:14px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.facts{margin:0 0 12px;color:var(--muted)}
.verdicts{display:flex;flex-wrap:wrap;gap:6px}
.mismatches td{vertical-align:top;padding:4px 12px 8px 0}
.frame{margin:0 0 8px;font-size:12px}.frame-name{font-weight:600;margin-bottom:2px}
.budget{display:grid;grid-template-columns:8.5em 8em auto;gap:6px;align-items:center}
.budget .bar{height:7px;border-radius:4px;background:#eceff3;overflow:hidden}
.budget .bar span{display:block;height:100%;background:var(--good)}
.budget.full .bar span{background:var(--bad)}.budget.full .counter{color:var(--bad)}
.budget.unused .counter,.budget.unused .num{color:var(--muted)}
.chip{display:inline-flex;gap:6px;align-items:baseline;padding:3px 10px;border-radius:7px;font-size:13px;
border:1px solid var(--line);background:#fafbfc}
.chip.bad{background:var(--bad-bg);border-color:#f5c2c2;color:var(--bad);font-weight:600}
.chip.warn{background:var(--warn-bg);border-color:#f1d6a6;color:var(--warn);font-weight:600}
.chip.good{color:var(--good)}
.chip .detail{font-weight:400;color:var(--text)}
.finding{--accent:var(--bad);--accent-bg:var(--bad-bg);border:1px solid var(--line);
border-left:4px solid var(--accent);border-radius:10px;margin:12px 0;background:#fff;overflow:hidden}
.finding.warning{--accent:var(--warn);--accent-bg:var(--warn-bg)}
.finding header{padding:10px 14px;background:#fcfcfd;border-bottom:1px solid var(--line)}
.where{font-size:13px;color:var(--muted);display:flex;flex-wrap:wrap;gap:6px;align-items:baseline}
.where .at-line{font-weight:650;color:var(--text)}
.where .dot{color:#c3c8d0}
.rules{list-style:none;margin:6px 0 0;padding:0}
.rules li{margin:3px 0}
.rule{font-weight:650;margin-right:4px;font-family:var(--mono);font-size:13px}
.finding-body{display:flex;flex-direction:column;gap:14px;padding:12px 14px 14px}
.quote{margin:0;min-width:0}
figcaption,.states caption{font-size:12px;color:var(--muted);text-align:left;margin-bottom:4px}
.lines{list-style:none;margin:0;padding:6px 0;background:#f7f8fa;border:1px solid var(--line);border-radius:8px}
.lines li{display:flex;gap:12px;padding:2px 10px;font-family:var(--mono);font-size:12.5px;line-height:1.45}
.lines li code{white-space:pre-wrap;overflow-wrap:anywhere;font-size:inherit;min-width:0}
.lines .gutter{flex:none;color:#9aa1ad;min-width:2.5em;text-align:right;user-select:none}
.lines li.offending{background:var(--accent-bg);box-shadow:inset 3px 0 0 var(--accent)}
.lines li.offending .gutter{color:var(--accent);font-weight:700}
.cut{color:var(--muted);padding-left:2px}
.states{width:100%;max-width:760px;font-size:13px}
.states th,.states td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
.states thead th{font-size:12px;color:var(--muted);font-weight:600}
.states tbody th{color:var(--muted);font-weight:500;width:6.5em;white-space:nowrap}
.states td.changed{background:#fff7d6}
.states td.stopped{color:var(--muted)}
code.path{display:inline-block;margin:1px 2px 1px 0;padding:0 5px;border-radius:4px;background:#f0f2f5;font-size:12px}
code.path.added{background:var(--good-bg);color:var(--good)}
code.path.dropped{background:var(--bad-bg);color:var(--bad);text-decoration:line-through}
code.id{font-weight:600}
.dependency{display:inline-flex;gap:4px;align-items:center;margin-right:10px}
.where code{font-size:12.5px;color:var(--text)}
.note{color:var(--muted);margin:6px 0}
.omitted{padding:10px 14px;border-radius:8px;background:var(--warn-bg);color:#7c4a03;margin:14px 0 0}
.tampered{margin:0;padding-left:18px}
.legend{display:flex;flex-wrap:wrap;gap:6px;margin-bottom:10px}
.legend .flag-key{--fill:#fff;--ink:var(--bad)}
.dag-scroll{overflow:auto;border:1px solid var(--line);border-radius:10px;background:#fbfcfd}
svg.dag{display:block}
svg.dag .layer-label{font-size:11px;fill:var(--muted);text-anchor:middle;letter-spacing:.05em;text-transform:uppercase}
svg.dag .edges path{fill:none;stroke:#b4bcc8;stroke-width:1.4}
svg.dag .node rect{fill:var(--fill);stroke:var(--ink);stroke-width:1.3}
svg.dag .node.flagged rect{stroke:var(--bad);stroke-width:3}
svg.dag .node-id{font-size:13px;font-weight:650;fill:var(--text);text-anchor:middle;font-family:var(--mono)}
svg.dag .node-status{font-size:11px;fill:var(--ink);text-anchor:middle}
svg.dag .flag{fill:var(--bad)}
svg.dag .flag-mark{fill:#fff;font-size:12px;font-weight:800;text-anchor:middle}
.layers th,.layers td{padding:4px 10px;border-bottom:1px solid var(--line);text-align:left;font-size:13px}
.layers .bar{display:flex;width:320px;height:14px;border-radius:4px;overflow:hidden;background:#eef1f5}
.layers .bar span{background:var(--ink)}
.layers .counts{color:var(--muted)}
footer{max-width:1180px;margin:0 auto;padding:0 24px 32px;color:var(--muted);font-size:12.5px}
`;
