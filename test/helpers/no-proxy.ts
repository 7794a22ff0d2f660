// Every test talks to servers on 127.0.0.1 that it started itself. A proxy in the environment of the
// machine running the suite (a CI runner behind one) would route those requests, or the processes the
// tests spawn, through it; the tests that are about proxies set their own variables.
for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'all_proxy', 'no_proxy']) {
  delete process.env[name];
}
