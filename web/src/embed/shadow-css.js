// The lab's stylesheet rewritten for a shadow root (DOM-free): the palette on :host instead of :root, so
// a course page can theme the element with the same custom properties (`lab-model-train { --accent: … }`,
// the page's rules win over :host); html/body rules on the element's own wrapper (.lab-body), main's on .lab-main; and the
// dark palette both under prefers-color-scheme and forced by theme="dark" (theme="light" keeps light).
const DARK = /@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}\s*\}/;

// The element's own wrapper: its title is an h2 (the course page has its h1).
const ELEMENT_CSS = '.site-header .lab-title { font-size: 1.35rem; margin: 0; flex: 1 1 auto; }';

export function shadowCss(css) {
  let out = css;
  const dark = DARK.exec(out);
  if (dark) {
    const vars = dark[1].trim().replace(/;?$/, ';');
    out = out.replace(dark[0], `@media (prefers-color-scheme: dark) { :host(:not([theme="light"])) { ${vars} } }\n`
      + `:host([theme="dark"]) { ${vars} color-scheme: dark; }\n:host([theme="light"]) { color-scheme: light; }\n`);
  }
  out = out.replace(/:root\b/g, ':host').replace(/(^|[}\s;])(?:html|body)\s*\{/g, '$1.lab-body {')
    .replace(/(^|[}\s;])main(\s*[{:])/g, '$1.lab-main$2');
  return `:host { display: block; }\n${out}\n${ELEMENT_CSS}`;
}
