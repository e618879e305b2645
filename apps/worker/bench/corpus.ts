/**
 * The benchmark's generated sources, shaped like what creators really add rather than minimal
 * files: a web article as a blog serves it (head with styles and scripts, a navigation menu,
 * sidebar, related posts, comments and a footer around ~1,200 words of article), and a DOCX as
 * Word writes it (styles, numbering, theme, settings and properties parts; headings, formatted
 * runs, a list and a table around ~2,000 words). PDFs come from the test fixtures (one text page
 * per page). Deterministic: the same seed gives the same bytes.
 */
import { makeZip, type ZipEntry } from '@fanpilot/testkit';

const vocabulary =
  'strength recovery mobility protein sleep tempo volume intensity deload bracing hinge squat press row carry breathing warm-up cooldown hydration progression technique consistency habit schedule coaching feedback posture balance endurance'.split(
    ' ',
  );

export const sentence = (seed: number, n = 14) => {
  const words = Array.from(
    { length: n },
    (_, i) => vocabulary[(seed * 7 + i * 3 + ((i * i) % 5)) % vocabulary.length],
  );
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
};
export const paragraph = (seed: number, sentences = 6) =>
  Array.from({ length: sentences }, (_, i) => sentence(seed + i)).join(' ');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** ~1,200 words of article inside a full blog page (~70 KB of HTML). */
export function blogArticle(seed: number): string {
  const title = `Training notes ${seed}: ${sentence(seed, 5).slice(0, -1)}`;
  const link = (i: number, label: string) =>
    `<li class="menu-item menu-item-${i}"><a href="/category/${i}/${label.replace(/\s+/g, '-')}" class="nav-link" data-track="nav-${i}">${esc(label)}</a></li>`;
  const menu = Array.from(
    { length: 6 },
    (_, g) =>
      `<li class="menu-item has-children"><a href="/section/${g}">${vocabulary[g]}</a><ul class="sub-menu">${Array.from({ length: 8 }, (_, i) => link(g * 8 + i, `${vocabulary[(g + i) % vocabulary.length]} ${vocabulary[(g * 3 + i) % vocabulary.length]}`)).join('')}</ul></li>`,
  ).join('');
  const style = Array.from(
    { length: 120 },
    (_, i) =>
      `.c-${i}{margin:${i % 7}px ${i % 5}px;padding:${i % 3}rem;color:#${((i * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(0, 6)};font:400 ${12 + (i % 8)}px/1.5 "Inter",system-ui,sans-serif}`,
  ).join('');
  const script = `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','G-BENCH${seed}');${Array.from({ length: 40 }, (_, i) => `(function(w,d,i){var s=d.createElement('script');s.async=true;s.src='https://cdn.example.com/widget-'+i+'.js?v=${seed}';d.head.appendChild(s)})(window,document,${i});`).join('')}`;
  const body: string[] = [];
  for (let s = 0; s < 8; s++) {
    body.push(`<h2 id="part-${s}">${esc(sentence(seed * 31 + s, 6).slice(0, -1))}</h2>`);
    for (let p = 0; p < 3; p++)
      body.push(
        `<p>${esc(paragraph(seed * 97 + s * 10 + p, 3))} <a href="/guide/${s}-${p}">${vocabulary[(s + p) % vocabulary.length]}</a> ${esc(sentence(seed + s + p, 9))}</p>`,
      );
    if (s === 3)
      body.push(
        `<figure class="wp-block-image"><img src="/uploads/${seed}/photo.jpg" alt="${vocabulary[s]}" width="1200" height="800" loading="lazy"><figcaption>${esc(sentence(seed + 5, 8))}</figcaption></figure>`,
      );
    if (s === 5)
      body.push(
        `<ul>${Array.from({ length: 5 }, (_, i) => `<li>${esc(sentence(seed * 13 + i, 8))}</li>`).join('')}</ul><blockquote><p>${esc(paragraph(seed + 77, 2))}</p></blockquote>`,
      );
  }
  const card = (i: number) =>
    `<article class="card c-${i % 120}"><a href="/post/${seed + i}"><img src="/thumbs/${seed + i}.jpg" alt="" width="300" height="200"><h3>${esc(sentence(seed * 3 + i, 6).slice(0, -1))}</h3></a><p class="excerpt">${esc(sentence(seed * 5 + i, 16))}</p><span class="meta">5 min read · ${vocabulary[i % vocabulary.length]}</span></article>`;
  const comments = Array.from(
    { length: 8 },
    (_, i) =>
      `<li class="comment" id="comment-${seed}-${i}"><div class="comment-author"><img src="/avatars/${i}.png" alt="" width="40" height="40"><b class="fn">Reader ${i}</b> <time datetime="2026-03-0${(i % 9) + 1}">March ${(i % 9) + 1}, 2026</time></div><div class="comment-content"><p>${esc(sentence(seed * 11 + i, 18))}</p></div><a class="reply" href="#reply-${i}">Reply</a></li>`,
  ).join('');
  const footer = Array.from(
    { length: 4 },
    (_, g) =>
      `<div class="footer-col"><h4>${vocabulary[g + 4]}</h4><ul>${Array.from({ length: 10 }, (_, i) => link(100 + g * 10 + i, `${vocabulary[(g * 2 + i) % vocabulary.length]} resources`)).join('')}</ul></div>`,
  ).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} | Coach Blog</title><meta name="description" content="${esc(sentence(seed, 20))}">
<meta property="og:title" content="${esc(title)}"><meta property="og:type" content="article"><link rel="canonical" href="https://coach.example.com/post/${seed}">
<link rel="stylesheet" href="/wp-content/themes/coach/style.css?ver=6.4"><style>${style}</style>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"BlogPosting","headline":${JSON.stringify(title)},"author":{"@type":"Person","name":"Coach"},"datePublished":"2026-03-01"}</script>
<script>${script}</script></head>
<body class="post-template-default single single-post postid-${seed}">
<div class="cookie-banner">We use cookies to improve your experience. <button>Accept all</button> <button>Settings</button></div>
<header class="site-header"><a class="logo" href="/"><img src="/logo.svg" alt="Coach Blog"></a><nav class="main-navigation" aria-label="Main"><ul class="menu">${menu}</ul></nav>
<form class="search-form" action="/search"><input type="search" name="q" placeholder="Search"><button>Search</button></form></header>
<div class="breadcrumbs"><a href="/">Home</a> › <a href="/blog">Blog</a> › ${esc(title)}</div>
<div class="layout"><main id="main" class="site-main"><article class="post type-post status-publish">
<header class="entry-header"><h1 class="entry-title">${esc(title)}</h1><div class="entry-meta">By <a href="/author/coach">Coach</a> · <time>March 1, 2026</time> · 7 min read</div></header>
<div class="entry-content">${body.join('\n')}</div>
<footer class="entry-footer"><span class="tags">Tags: ${vocabulary
    .slice(0, 6)
    .map((t) => `<a href="/tag/${t}" rel="tag">${t}</a>`)
    .join(', ')}</span>
<div class="share">Share: <a href="https://twitter.com/share">Twitter</a> <a href="https://facebook.com/share">Facebook</a> <a href="mailto:">Email</a></div></footer></article>
<section class="related"><h2>You may also like</h2>${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</section>
<section class="comments"><h2>8 comments</h2><ol class="comment-list">${comments}</ol>
<form class="comment-form"><textarea name="comment"></textarea><input name="author" placeholder="Name"><input name="email" placeholder="Email"><button>Post comment</button></form></section></main>
<aside class="sidebar"><section class="widget newsletter"><h3>Join the newsletter</h3><p>${esc(sentence(seed + 9, 12))}</p><form><input type="email" placeholder="you@example.com"><button>Subscribe</button></form></section>
<section class="widget popular"><h3>Popular posts</h3><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/post/${i}"><img src="/thumbs/p${i}.jpg" width="60" height="60" alt="">${esc(sentence(i * 17, 6).slice(0, -1))}</a></li>`).join('')}</ul></section></aside></div>
<footer class="site-footer"><div class="footer-columns">${footer}</div><p class="copyright">© 2026 Coach Blog. All rights reserved. <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a> · <a href="/cookies">Cookie settings</a></p></footer>
<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"></script><script>${script.replace(/widget-/g, 'footer-widget-')}</script></body></html>`;
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const xml = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);

/** Runs as Word splits them: every few words, each with its own formatting. */
function runs(text: string, seed: number): string {
  const words = text.split(' ');
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 6) {
    const bold = (seed + i) % 11 === 0 ? '<w:b/><w:bCs/>' : '';
    const italic = (seed + i) % 13 === 0 ? '<w:i/><w:iCs/>' : '';
    out.push(
      `<w:r w:rsidRPr="00${(seed * 7 + i).toString(16).padStart(6, '0').toUpperCase()}"><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:cs="Calibri"/>${bold}${italic}<w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US"/></w:rPr><w:t xml:space="preserve">${esc(words.slice(i, i + 6).join(' '))} </w:t></w:r>`,
    );
  }
  return out.join('');
}

const para = (text: string, seed: number, style?: string, numbered = false) =>
  `<w:p w:rsidR="00A1B2C3" w:rsidRDefault="00A1B2C3"><w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ''}${numbered ? '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>' : ''}<w:spacing w:after="160" w:line="259" w:lineRule="auto"/><w:jc w:val="both"/></w:pPr>${runs(text, seed)}</w:p>`;

/** A Word-made document of about `words` words: headings, formatted runs, a list and a table. */
export function wordDocument(seed: number, words = 2000): Buffer {
  const blocks: string[] = [para(`Client handbook ${seed}`, seed, 'Title')];
  let count = 0;
  for (let s = 0; count < words; s++) {
    blocks.push(para(sentence(seed * 19 + s, 5).slice(0, -1), seed + s, 'Heading1'));
    for (let p = 0; p < 4 && count < words; p++) {
      const text = paragraph(seed * 101 + s * 7 + p, 5);
      count += text.split(' ').length;
      blocks.push(para(text, seed + s * 5 + p));
    }
    if (s % 3 === 1)
      for (let i = 0; i < 4; i++)
        blocks.push(para(sentence(seed + s + i, 10), seed + i, 'ListParagraph', true));
    if (s % 4 === 2) {
      const cell = (t: string) =>
        `<w:tc><w:tcPr><w:tcW w:w="3005" w:type="dxa"/></w:tcPr>${para(t, seed + s)}</w:tc>`;
      const rows = Array.from(
        { length: 4 },
        (_, r) =>
          `<w:tr>${[0, 1, 2].map((c) => cell(`${vocabulary[(r * 3 + c + s) % vocabulary.length]} ${r * 3 + c}`)).join('')}</w:tr>`,
      ).join('');
      blocks.push(
        `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/><w:tblLook w:val="04A0"/></w:tblPr><w:tblGrid><w:gridCol w:w="3005"/><w:gridCol w:w="3005"/><w:gridCol w:w="3005"/></w:tblGrid>${rows}</w:tbl>`,
      );
    }
  }
  const document = `<w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${blocks.join('')}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`;
  const style = (id: string, name: string, extra = '') =>
    `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="9"/><w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="0"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:rFonts w:asciiTheme="majorHAnsi" w:hAnsiTheme="majorHAnsi"/><w:color w:val="2F5496"/>${extra}</w:rPr></w:style>`;
  const styles = `<w:styles xmlns:w="${W}"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi"/><w:sz w:val="22"/><w:lang w:val="en-US"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>${style('Title', 'Title', '<w:sz w:val="56"/>')}${style('Heading1', 'heading 1', '<w:sz w:val="32"/>')}${style('Heading2', 'heading 2', '<w:sz w:val="26"/>')}${style('ListParagraph', 'List Paragraph')}${Array.from({ length: 30 }, (_, i) => style(`Custom${i}`, `Custom style ${i}`)).join('')}<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/></w:tblBorders></w:tblPr></w:style></w:styles>`;
  const numbering = `<w:numbering xmlns:w="${W}"><w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="hybridMultilevel"/>${Array.from({ length: 9 }, (_, l) => `<w:lvl w:ilvl="${l}"><w:start w:val="1"/><w:numFmt w:val="${l % 2 ? 'bullet' : 'decimal'}"/><w:lvlText w:val="%${l + 1}."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${720 * (l + 1)}" w:hanging="360"/></w:pPr></w:lvl>`).join('')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
  const theme = `<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Office Theme"><a:themeElements><a:clrScheme name="Office">${['dk1', 'lt1', 'dk2', 'lt2', 'accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6', 'hlink', 'folHlink'].map((c, i) => `<a:${c}><a:srgbClr val="${(i * 1234567).toString(16).padStart(6, '0').slice(0, 6)}"/></a:${c}>`).join('')}</a:clrScheme><a:fontScheme name="Office"><a:majorFont><a:latin typeface="Calibri Light"/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/></a:minorFont></a:fontScheme><a:fmtScheme name="Office">${'<a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst>'.repeat(20)}</a:fmtScheme></a:themeElements></a:theme>`;
  const rel = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  const ct = (part: string, type: string) =>
    `<Override PartName="${part}" ContentType="application/vnd.openxmlformats-officedocument.${type}"/>`;
  const entries: ZipEntry[] = [
    {
      name: '[Content_Types].xml',
      data: xml(
        `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${ct('/word/document.xml', 'wordprocessingml.document.main+xml')}${ct('/word/styles.xml', 'wordprocessingml.styles+xml')}${ct('/word/numbering.xml', 'wordprocessingml.numbering+xml')}${ct('/word/settings.xml', 'wordprocessingml.settings+xml')}${ct('/word/theme/theme1.xml', 'theme+xml')}${ct('/docProps/app.xml', 'extended-properties+xml')}<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
      ),
    },
    {
      name: '_rels/.rels',
      data: xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel('rId1', 'officeDocument', 'word/document.xml')}<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>${rel('rId3', 'extended-properties', 'docProps/app.xml')}</Relationships>`,
      ),
    },
    {
      name: 'word/_rels/document.xml.rels',
      data: xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel('rId1', 'styles', 'styles.xml')}${rel('rId2', 'numbering', 'numbering.xml')}${rel('rId3', 'settings', 'settings.xml')}${rel('rId4', 'theme', 'theme/theme1.xml')}</Relationships>`,
      ),
    },
    { name: 'word/document.xml', data: xml(document) },
    { name: 'word/styles.xml', data: xml(styles) },
    { name: 'word/numbering.xml', data: xml(numbering) },
    {
      name: 'word/settings.xml',
      data: xml(
        `<w:settings xmlns:w="${W}"><w:zoom w:percent="100"/><w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="doNotCompress"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat><w:rsids>${Array.from({ length: 40 }, (_, i) => `<w:rsid w:val="00${(seed * 40 + i).toString(16).padStart(6, '0').toUpperCase()}"/>`).join('')}</w:rsids></w:settings>`,
      ),
    },
    { name: 'word/theme/theme1.xml', data: xml(theme) },
    {
      name: 'docProps/core.xml',
      data: xml(
        `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Client handbook ${seed}</dc:title><dc:creator>Coach</dc:creator></cp:coreProperties>`,
      ),
    },
    {
      name: 'docProps/app.xml',
      data: xml(
        `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Office Word</Application><Pages>${Math.ceil(words / 500)}</Pages><Words>${count}</Words></Properties>`,
      ),
    },
  ];
  return makeZip(entries);
}
