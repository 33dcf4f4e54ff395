package dev.planvm.server.report;

/** The report's inline stylesheet and script. */
final class Styles {

    private Styles() {}

    static final String CSS = """
            body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#222}
            h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:28px}
            h4{margin:8px 0 2px;font-size:13px;color:#555}
            dl.summary{display:grid;grid-template-columns:110px 1fr;gap:2px 12px;margin:0}dt{color:#666}dd{margin:0}
            dd.status.succeeded{color:#17803d;font-weight:600}dd.status.failed,dd.error{color:#b42318;font-weight:600}
            dd.status.waiting,dd.waiting{color:#b25e09;font-weight:600}
            pre{background:#f6f8fa;border:1px solid #e5e7eb;border-radius:4px;padding:6px 8px;overflow:auto;max-height:360px;margin:2px 0;white-space:pre-wrap;word-break:break-word}
            pre.error{background:#fef3f2;border-color:#fecdca}
            pre.diff .del{color:#b42318}pre.diff .ins{color:#17803d}
            svg text{font:12px system-ui,sans-serif;fill:#222}
            g.node rect{fill:#fff;stroke:#888;stroke-width:1.2}g.node.ran rect{fill:#ecfdf3;stroke:#17803d}
            g.node.failed rect{fill:#fef3f2;stroke:#b42318;stroke-width:2}g.node.waiting rect{fill:#fffaeb;stroke:#b25e09;stroke-width:2}
            g.node.not-run rect{fill:#f9fafb;stroke:#bbb;stroke-dasharray:4 3}g.node{cursor:pointer}g.node:focus rect,g.node.hl rect{stroke:#1d4ed8;stroke-width:2.5}
            g.edge path{fill:none;stroke:#bbb;stroke-width:1.2}g.edge.taken path{stroke:#555;stroke-width:1.8}
            g.edge.jump path{stroke-dasharray:none}g.edge.data path{stroke:#7c3aed;stroke-dasharray:3 3;opacity:.6}
            text.count{fill:#1d4ed8;font-weight:600}text.var{fill:#7c3aed;font-size:10px}
            rect.bar{cursor:pointer}rect.step{fill:#93c5fd}rect.step.failed{fill:#fca5a5}rect.call{fill:#86efac}
            rect.call.failed{fill:#f87171}rect.attempt{fill:#f87171}line.tick{stroke:#eee}text.tick{fill:#888;font-size:10px}text.row{font-size:11px;fill:#444}
            .legend .key{display:inline-block;padding:0 6px;border-radius:3px;margin-right:4px;font-size:12px}
            .key.seq{border:1px solid #555}.key.jump{border:1px solid #555;border-radius:10px}.key.data{border:1px dashed #7c3aed;color:#7c3aed}
            .key.step{background:#93c5fd}.key.call{background:#86efac}.key.attempt{background:#f87171}.key.wait{background:#ddd}
            details.step{border:1px solid #e5e7eb;border-radius:4px;margin:4px 0;padding:2px 8px}details.step.failed{border-color:#fca5a5}
            details.step summary{cursor:pointer}details.step.hl{outline:2px solid #1d4ed8}.note{color:#666;font-style:italic}
            """;

    static final String SCRIPT = """
            (function(){
              function open(step){ if(!step) return; document.querySelectorAll('details.step.hl').forEach(function(d){d.classList.remove('hl');});
                step.open=true; step.classList.add('hl'); step.scrollIntoView({block:'center'}); }
              document.querySelectorAll('#flow-graph g.node').forEach(function(node){
                function go(){ open(document.querySelector('details.step[data-seq="'+node.getAttribute('data-seq')+'"]')); }
                node.addEventListener('click', go);
                node.addEventListener('keydown', function(e){ if(e.key==='Enter') go(); });
              });
              document.querySelectorAll('#timeline rect.bar').forEach(function(bar){
                bar.addEventListener('click', function(){
                  var t=bar.getAttribute('data-target')||'';
                  open(t.indexOf('seq-')===0 ? document.querySelector('details.step[data-seq="'+t.substring(4)+'"]') : document.getElementById(t));
                });
              });
              document.body.setAttribute('data-nodes', document.querySelectorAll('#flow-graph g.node').length);
              document.body.setAttribute('data-bars', document.querySelectorAll('#timeline rect.bar').length);
              document.body.setAttribute('data-ready','1');
            })();
            """;
}
