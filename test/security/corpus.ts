/**
 * Hostile strings for every field of a notification that whoever triggers an event controls. Each
 * script-bearing entry sets `window.__xss` (or opens a dialog), so a test that finds the flag unset
 * and saw no dialog knows none of them ran.
 */
export const XSS_FLAG = '__xss'

type InjectionKind = 'script' | 'handler' | 'url' | 'svg' | 'markup' | 'text'

export interface Injection {
  kind: InjectionKind
  value: string
}

const run = `window.${XSS_FLAG}=1`
const b64 = (ascii: string) => btoa(ascii)

const script: string[] = [
  `<script>${run}</script>`,
  `<SCRIPT>${run}</SCRIPT>`,
  `<script src="data:text/javascript,${run}"></script>`,
  `<scr<script>ipt>${run}</scr</script>ipt>`,
  `"><script>${run}</script>`,
  `'><script>${run}</script>`,
  `</textarea></title></style><script>${run}</script>`,
  `<script>alert(1)</script>`,
  `<script type="module">${run}</script>`,
]

const handler: string[] = [
  `<img src=x onerror="${run}">`,
  `<img src=x onerror=alert(1)>`,
  `<IMG SRC=x OnErRoR=${run}>`,
  `<body onload=${run}>`,
  `<div onmouseover="${run}" style="position:fixed;inset:0;z-index:99999">hover me</div>`,
  `<input autofocus onfocus=${run}>`,
  `<details open ontoggle=${run}>`,
  `<video><source onerror="${run}"></video>`,
  `<audio src=x onerror=${run}>`,
  `" onmouseover="${run}" x="`,
  `' onfocus='${run}' autofocus='`,
  `<a href="javascript:${run}">click</a>`,
  `<iframe src="javascript:${run}"></iframe>`,
  `<iframe srcdoc="<script>parent.${XSS_FLAG}=1</script>"></iframe>`,
  `<object data="javascript:${run}"></object>`,
  `<embed src="data:text/html,<script>parent.${XSS_FLAG}=1</script>">`,
  `<form action="javascript:${run}"><button>go</button></form>`,
  `<marquee onstart=${run}>x</marquee>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${run}">`,
  `<base href="javascript:${run}//">`,
  `<link rel=stylesheet href="javascript:${run}">`,
  `<style>@import 'javascript:${run}';</style>`,
  `<div style="background:url(javascript:${run})">x</div>`,
  `<div style="width:expression(${run})">x</div>`,
]

const url: string[] = [
  `javascript:${run}`,
  `JaVaScRiPt:${run}`,
  `JAVASCRIPT:alert(1)`,
  `   javascript:${run}`,
  `\tjava\nscript:${run}`,
  `java\u0000script:${run}`,
  `\u0001javascript:${run}`,
  `jav&#x09;ascript:${run}`,
  `&#106;avascript:${run}`,
  `javascript&colon;${run}`,
  `&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;${run}`,
  `javascript://example.com/%0A${run}`,
  `javascript:/*--></title></style></textarea></script><svg/onload='+/"/+/onmouseover=1/+/[*/[]/+${run}//'>`,
  `data:text/html,<script>${run}</script>`,
  `DATA:text/html;base64,${b64(`<script>${run}</script>`)}`,
  `Data:image/svg+xml;base64,${b64(`<svg xmlns="http://www.w3.org/2000/svg" onload="${run}"/>`)}`,
  `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="${run}"/>`,
  ` data:text/html,<script>${run}</script>`,
  'vbscript:msgbox(1)',
  'VbScRiPt:msgbox(1)',
  'blob:https://example.invalid/0b2e6a34',
  'file:///etc/passwd',
  'about:blank',
  `https://example.invalid/" onmouseover="${run}`,
  `https://example.invalid/<script>${run}</script>`,
  `%6A%61%76%61%73%63%72%69%70%74:${run}`,
  `[click me](javascript:${run})`,
]

const svg: string[] = [
  `<svg onload=${run}>`,
  `<svg><script>${run}</script></svg>`,
  `<svg><animate onbegin=${run} attributeName=x dur=1s>`,
  `<svg><a xlink:href="javascript:${run}"><text x=20 y=20>click</text></a></svg>`,
  `<svg><set attributeName=onmouseover to=${run}></set></svg>`,
  `<svg><foreignObject><iframe srcdoc="<script>parent.${XSS_FLAG}=1</script>"></iframe></foreignObject></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=${run}>`,
  `<noscript><p title="</noscript><img src=x onerror=${run}>">`,
]

const markup: string[] = [
  '<img src="x',
  `<<script>>${run}<</script>>`,
  '</div></article></li></ul></section></dialog></body></html>',
  '<!--',
  `]]><![CDATA[<script>${run}</script>`,
  '<plaintext>',
  '<table><tr><td>unclosed',
  `{{constructor.constructor('${run}')()}}`,
  `\${${run}}`,
  `%3Cscript%3E${encodeURIComponent(run)}%3C%2Fscript%3E`,
  `<div style="position:fixed;top:0;left:0;width:100vw;height:100vh;background:red">overlay</div>`,
]

const text: string[] = [
  'A'.repeat(5000),
  `https://example.com/${'a'.repeat(3000)}`,
  '\u202Egnp.exe',
  'مرحبا بالعالم '.repeat(200),
  'שלום עולם '.repeat(150) + 'mixed English tail',
  `\u202E${'x'.repeat(2000)}\u202C`,
  '\u200B'.repeat(1000) + 'zero width space',
  'a\u200Db\u200Cc\uFEFFd\u2060e'.repeat(200),
  `Z${'\u0336\u0337\u0338\u0489'.repeat(150)}`,
  'line\u2028separator\u2029paragraph\r\n\r\nand NUL\u0000 end',
  '👩‍👩‍👧‍👦'.repeat(300),
  '\uD800 lone surrogate \uDFFF',
  '\u0000\u0001\u0002\u0007\u001b[31mterminal escape\u001b[0m',
]

/** Every injection string, by kind. */
export const INJECTIONS: readonly Injection[] = [
  ...script.map((value) => ({ kind: 'script' as const, value })),
  ...handler.map((value) => ({ kind: 'handler' as const, value })),
  ...url.map((value) => ({ kind: 'url' as const, value })),
  ...svg.map((value) => ({ kind: 'svg' as const, value })),
  ...markup.map((value) => ({ kind: 'markup' as const, value })),
  ...text.map((value) => ({ kind: 'text' as const, value })),
]

/** Whether a URL, as a browser would resolve it, leaves the web (anything but http and https). */
export function isNonHttpUrl(value: string, base = 'http://relative.invalid/'): boolean {
  try {
    const { protocol } = new URL(value, base)
    return protocol !== 'http:' && protocol !== 'https:'
  } catch {
    return false
  }
}
