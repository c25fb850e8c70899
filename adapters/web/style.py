"""The style of a board page, inlined into it: a phone of 360 px first, two columns on a desk."""

from __future__ import annotations

STYLE = """
[hidden]{display:none!important}
*{box-sizing:border-box}
body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:0 .6rem 2rem;background:#f6f3ea;
color:#222}
header{display:flex;align-items:center;gap:.6rem;padding:.5rem 0;position:sticky;top:0;
background:#f6f3ea;z-index:3;border-bottom:1px solid #ddd}
h1{font-size:1.05rem;margin:0;flex:1;overflow-wrap:anywhere}h2{font-size:1rem;margin:.7rem 0 .3rem}
.live{font-size:.8rem;color:#2a7a2a;white-space:nowrap}.live.away{color:#b06000}
.answer{background:#fff;border-left:4px solid #e8b923;padding:.35rem .6rem;margin:.5rem 0}
.refused{background:#fff4f4;border-left:4px solid #b00020;padding:.5rem .7rem}
main{display:grid;grid-template-columns:1fr;gap:.6rem}
@media (min-width:900px){main.game{grid-template-columns:minmax(0,3fr) minmax(16rem,2fr)}
body{padding:0 1.2rem 2rem}}
section{min-width:0}
.panel{background:#fff;border:1px solid #ccc;border-radius:8px;padding:.5rem .6rem}
.mine.due{border:2px solid #e8b923}
.row{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center;margin:.3rem 0}
.label{font-weight:600;margin-right:.2rem}
.moves{display:flex;flex-wrap:wrap;gap:.35rem;margin:.4rem 0}
button{font:inherit;padding:.45rem .7rem;border:1px solid #888;border-radius:6px;background:#fff;
color:#222;cursor:pointer;min-height:2.4rem}
button:hover{background:#fdf6dc}button:focus-visible,select:focus-visible,input:focus-visible,
a:focus-visible{outline:3px solid #1f5fbf;outline-offset:1px}
button.main{background:#2f6f3a;color:#fff;border-color:#2f6f3a}
button.main:hover{background:#245a2e}button:disabled{opacity:.5;cursor:default}
.move .n{display:inline-block;min-width:1.1rem;color:#777;font-size:.8rem}
.note{font-weight:600}.yours{font-weight:700;color:#2f6f3a;margin:.2rem 0}
.cardbtn{padding:2px;min-height:0;border:2px solid transparent;background:none;border-radius:6px}
.cardbtn[aria-pressed=true]{border-color:#1f5fbf;background:#dfe9fb}
.cardbtn:disabled{opacity:1}
.bean{display:inline-flex;align-items:center;gap:.15rem;font-style:normal;color:#222;
position:relative}
svg.card{width:38px;height:53px;display:block}
@media (min-width:500px){svg.card{width:44px;height:62px}}
.pos{position:absolute;left:2px;bottom:1px;font-size:.7rem;font-weight:700;background:#fff;
border-radius:3px;padding:0 2px}
.count{font-weight:700}
.defs{position:absolute;width:0;height:0;overflow:hidden}
.seats{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.5rem}
.seat{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.35rem .5rem}
.seat.active{border:2px solid #333;box-shadow:0 0 0 3px #e8b92355}
.seat.me{background:#fbfaf4}
.who{display:flex;gap:.4rem;align-items:center;font-weight:600;overflow-wrap:anywhere}
.swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:50%;flex:none}
.wait{display:inline-block;width:.7rem;height:.7rem;border-radius:50%;background:#e8a000;
animation:pulse 1.6s ease-in-out infinite;flex:none}
@keyframes pulse{50%{opacity:.3}}
@media (prefers-reduced-motion:reduce){.wait{animation:none}}
.field{display:inline-flex;align-items:center;gap:.15rem;min-width:2.8rem;min-height:3.5rem;
border:1px dashed #aaa;border-radius:5px;padding:.1rem .25rem;color:#888;font-style:italic}
.offer{border-top:1px solid #eee;padding:.3rem 0}.offer p{margin:.1rem 0}
.offer.tome{background:#fffbe8}.stale{color:#888}
.trade{border:1px dashed #1f5fbf;border-radius:6px;padding:.4rem;margin:.4rem 0}
.chip{min-height:2rem;padding:.25rem .5rem}.chip[aria-pressed=true]{background:#dfe9fb;
border-color:#1f5fbf}
#story{max-height:22rem;overflow:auto;padding-left:0;margin:0;list-style:none}
#story li{color:#555;padding:.05rem 0}#story li:last-child{color:#111;font-weight:600}
.piles{color:#555;font-size:.9rem}.last-turn{font-weight:700;color:#b00020}
.keys{color:#777;font-size:.8rem}
.result{background:#fff;border:2px solid #e8b923;border-radius:6px;padding:.4rem .8rem}
.result .winner{font-weight:700}
.lobby ul{padding-left:1.2rem}.lobby li{margin:.15rem 0}
input[type=text],select{font:inherit;padding:.4rem;border:1px solid #888;border-radius:6px;
max-width:100%}
.invite input{width:100%}
a{color:#1f5fbf}
"""
