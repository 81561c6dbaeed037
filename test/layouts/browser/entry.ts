// #focus… is the page of focus.browser.test.ts, the rest that of layouts.browser.test.ts.
void (location.hash.startsWith('#focus') ? import('./focus') : import('./main')).then((m) => m.page)
