// A real OAuth 2.1 / OpenID authorization server (oidc-provider) for the OAuth tests, on loopback only.
//
//   node server.mjs [PORT]     (0 or none: a free port; prints {"issuer": ...} as one line when ready)
//
// What it offers: client credentials, resource indicators (RFC 8707) whose access tokens are JWTs
// with aud = the resource (or opaque, for clients whose id starts with "opaque-"), introspection
// (RFC 7662), revocation (RFC 7009), open dynamic client registration (RFC 7591), and the
// authorization-code flow with PKCE whose login and consent complete on their own (GET
// /interaction/UID signs in "tester" and grants what was asked), so that a test can finish it
// without a person. Test-only control routes:
//   POST /control/rotate  a new RSA signing key becomes the current one; older keys stay published
//   POST /control/keys    (a private JWK as the body) publish one more key, for tokens a test signs
//   GET  /control/stats   how often the JWKS was served
// Keys are changed by building a new Provider over the same in-memory storage, so clients, grants and
// tokens outlive a rotation, as they do at a real issuer.

import http from 'node:http';
import crypto from 'node:crypto';

import Provider from 'oidc-provider';

const SCOPE = 'mcp:tools';
const port = Number(process.argv[2] || 0);
const cookieKeys = [crypto.randomBytes(32).toString('hex')];
const keys = [];  // private JWKs; the first RSA one signs
let jwksServed = 0;

function newRsaKey() {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' };
}

const clients = [
  { client_id: 'service', client_secret: 'service-secret', grant_types: ['client_credentials'],
    redirect_uris: [], response_types: [], scope: SCOPE },
  { client_id: 'opaque-service', client_secret: 'opaque-secret', grant_types: ['client_credentials'],
    redirect_uris: [], response_types: [], scope: SCOPE },
  // The resource server's own credentials: it may only introspect.
  { client_id: 'websearch', client_secret: 'websearch-secret', grant_types: [], redirect_uris: [],
    response_types: [] },
];

function build(issuer) {
  const provider = new Provider(issuer, {
    clients,
    jwks: { keys },
    cookies: { keys: cookieKeys },
    scopes: ['openid', 'offline_access', SCOPE],
    pkce: { required: () => true },
    ttl: { AccessToken: 300, ClientCredentials: 300, AuthorizationCode: 60, Grant: 3600, IdToken: 300,
           Interaction: 600, RefreshToken: 3600, Session: 3600 },
    findAccount: async (ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
    clientBasedCORS: () => true,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (ctx, client, oneOf) => (oneOf ? oneOf[0] : undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, resource, client) => ({
          scope: SCOPE,
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: client.clientId.startsWith('opaque-') ? 'opaque' : 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  provider.on('server_error', (ctx, err) => console.error('server_error', err));
  return provider;
}

// Login and consent without a person: the signed-in user is "tester" and every scope asked is granted.
async function interact(provider, req, res) {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session } = details;
  if (prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: 'tester' } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  const missing = prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes || {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

keys.push(newRsaKey());
let provider = null;
let issuer = null;

const server = http.createServer(async (req, res) => {
  try {
    const path = new URL(req.url, issuer).pathname;
    if (req.method === 'GET' && path.startsWith('/interaction/')) {
      await interact(provider, req, res);
    } else if (req.method === 'POST' && path === '/control/rotate') {
      keys.unshift(newRsaKey());
      provider = build(issuer);
      json(res, 200, { kid: keys[0].kid });
    } else if (req.method === 'POST' && path === '/control/keys') {
      keys.push(JSON.parse(await readBody(req)));
      provider = build(issuer);
      json(res, 200, { keys: keys.length });
    } else if (req.method === 'GET' && path === '/control/stats') {
      json(res, 200, { jwks_served: jwksServed });
    } else {
      if (path === '/jwks') jwksServed += 1;
      provider.callback()(req, res);
    }
  } catch (err) {
    console.error(err);
    if (!res.headersSent) json(res, 500, { error: String(err) });
  }
});

server.listen(port, '127.0.0.1', () => {
  issuer = `http://127.0.0.1:${server.address().port}`;
  provider = build(issuer);
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});
process.on('SIGTERM', () => process.exit(0));  // open keep-alive connections must not hold the exit
