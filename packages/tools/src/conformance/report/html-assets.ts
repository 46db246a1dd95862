// The inline style and script of the HTML report (kept apart so the page template stays readable).
export const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1d2330;background:#fafbfc}
h1{font-size:1.4rem}code{font-family:ui-monospace,monospace}
.verdict.passed,.badge.passed{color:#0a7a33}.verdict.failed,.badge.failed{color:#b3141f}
.badge{display:inline-block;min-width:4.5em;font-weight:600;text-transform:uppercase;font-size:.75rem}
.badge.warning{color:#9a6100}.badge.skipped{color:#5b6473}
table.summary{border-collapse:collapse;margin-bottom:1rem}table.summary th{text-align:left;padding:.2rem .8rem .2rem 0;color:#5b6473}
table.summary td{padding:.2rem 1.5rem .2rem 0}
.filters{position:sticky;top:0;background:#fafbfc;padding:.5rem 0;display:flex;gap:.4rem;flex-wrap:wrap;z-index:1}
.filters button{border:1px solid #c8ced8;background:#fff;border-radius:4px;padding:.2rem .6rem;cursor:pointer}
.filters button.on{background:#1d2330;color:#fff}.filters input{flex:1;min-width:12rem;padding:.2rem .5rem}
details.check{background:#fff;border:1px solid #dde2ea;border-left:4px solid #0a7a33;border-radius:4px;margin:.35rem 0;padding:.3rem .6rem}
details.check.failed{border-left-color:#b3141f}details.check.warning{border-left-color:#d18b00}details.check.skipped{border-left-color:#9aa3b0}
summary{cursor:pointer}.meta{display:block;color:#5b6473;font-size:.8rem;margin-left:5.2em}
.reason{color:#5b6473;font-style:italic}.failures li{color:#7d0f16}.ea{color:#1d2330}
.exchange{border-top:1px dashed #dde2ea;margin-top:.5rem;padding-top:.4rem}.exhead{font-weight:600;font-size:.8rem}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}
pre{background:#f3f5f8;padding:.4rem;overflow:auto;max-height:22rem;white-space:pre-wrap;word-break:break-all;font-size:.75rem;margin:.3rem 0}
pre.curl{background:#1d2330;color:#e8ecf2}
.hidden{display:none}`;

export const FILTER_SCRIPT = `
(function(){
  var status = "all", q = document.getElementById("q");
  function apply(){
    var text = q.value.toLowerCase();
    document.querySelectorAll("details.check").forEach(function(d){
      var show = (status === "all" || d.dataset.status === status) && d.dataset.text.indexOf(text) >= 0;
      d.classList.toggle("hidden", !show);
    });
  }
  document.querySelectorAll("[data-filter]").forEach(function(b){
    b.addEventListener("click", function(){
      status = b.dataset.filter;
      document.querySelectorAll("[data-filter]").forEach(function(x){ x.classList.toggle("on", x === b); });
      apply();
    });
  });
  q.addEventListener("input", apply);
})();`;
