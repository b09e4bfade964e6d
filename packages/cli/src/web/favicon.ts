// The site's icon (a calendar page), served at /favicon.svg and linked from every page;
// /favicon.ico, which browsers and feed readers ask for by habit, redirects to it.
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect x="3" y="5" width="26" height="24" rx="3" fill="#fff" stroke="#0a4b78" stroke-width="2"/>
<path d="M3 8a3 3 0 0 1 3-3h20a3 3 0 0 1 3 3v4H3z" fill="#0a4b78"/>
<rect x="9" y="2" width="3" height="6" rx="1.5" fill="#2c3338"/><rect x="20" y="2" width="3" height="6" rx="1.5" fill="#2c3338"/>
<g fill="#0a4b78"><rect x="8" y="16" width="4" height="4"/><rect x="14" y="16" width="4" height="4"/><rect x="20" y="16" width="4" height="4"/><rect x="8" y="22" width="4" height="4"/><rect x="14" y="22" width="4" height="4"/></g>
</svg>
`;
