// The docs page's only stylesheet, inlined so the page works offline: system fonts, light colours, tables that
// scroll sideways instead of overflowing a narrow window.
export const DOCS_STYLE = `
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --accent: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: #fff; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1080px; margin: 0 auto; padding: 1.5rem 1rem 4rem; }
h1 { font-size: 1.8rem; margin: 0 0 .25rem; }
h2 { font-size: 1.4rem; margin: 2.5rem 0 1rem; padding-bottom: .3rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.15rem; margin: 0 0 .5rem; display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; }
h4 { font-size: .95rem; margin: 1.25rem 0 .4rem; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .88em; }
code { background: var(--soft); padding: .05em .3em; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: .75rem; overflow-x: auto; margin: .25rem 0 0; }
pre code { background: none; padding: 0; }
.lead { color: var(--muted); margin-top: 0; }
nav.toc { background: var(--soft); border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1.25rem; }
nav.toc ol { margin: .25rem 0; padding-left: 1.25rem; }
nav.toc li { margin: .1rem 0; }
nav.toc .method { font-size: .7rem; min-width: 3.2rem; }
.operation, .decision { border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin: 1.25rem 0; }
.operation:target, .decision:target { outline: 3px solid #54aeff66; }
.method { display: inline-block; min-width: 3.6rem; text-align: center; border-radius: 4px; padding: .1rem .4rem; color: #fff; font: 600 .78rem/1.4 ui-monospace, monospace; }
.method.get { background: #1a7f37; } .method.post { background: #0969da; } .method.put, .method.patch { background: #9a6700; } .method.delete { background: #cf222e; }
.path { font-size: 1rem; background: none; }
.permalink { color: var(--muted); font-weight: normal; }
.summary { font-weight: 600; margin: .25rem 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .75rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { border: 1px solid var(--line); padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td p { margin: 0 0 .4rem; } td p:last-child { margin: 0; }
td.type { white-space: nowrap; color: #393f46; }
td.bounds { color: #393f46; min-width: 9rem; max-width: 16rem; overflow-wrap: anywhere; }
td.field, td.ctype { white-space: nowrap; }
.nest { color: var(--muted); }
.decision-ref { white-space: nowrap; }
.req { color: #bc4c00; font-weight: 600; }
td.status.s2xx strong { color: #1a7f37; } td.status.s4xx strong { color: #9a6700; } td.status.s5xx strong { color: #cf222e; }
ul.headers { margin: 0; padding-left: 1rem; }
figure.example { margin: .5rem 0 .75rem; }
figcaption { color: var(--muted); font-size: .88rem; }
.decision h3 { font-size: 1.05rem; }
.decision dl { margin: .25rem 0 0; }
.decision dt { font-weight: 600; margin-top: .4rem; }
.decision dd { margin: 0; }
.decision dd p { margin: 0 0 .3rem; }
@media (max-width: 640px) { body { font-size: 14px; } main { padding: 1rem .6rem 3rem; } td.type, td.field { white-space: normal; } dl.facts { grid-template-columns: 1fr; } }
`;
