// The HAProxy configuration of the cluster harness, which docs/deploy.md
// gives as the reference: room sockets to the realtime nodes, everything else
// to the web nodes, a node used only while its /readyz answers 200, and a
// request retried on another node only when that is safe.
export type Backend = { name: string; port: number };

/** Health checks of /readyz: every 500 ms; two failures in a row take a node out, one success puts it back. */
export const HEALTH_CHECK = { intervalMs: 500, fall: 2, rise: 1 };
/** How long one check may take: above the node's own 2 s bound on its readiness checks, so a slow but healthy node is not failed (without it HAProxy gives up after `inter`). */
export const CHECK_TIMEOUT_SECONDS = 3;
/**
 * DRAIN_NOTICE_SECONDS for nodes behind it: the balancer takes a draining node
 * out at most fall × inter after its first 503, and one more second covers a
 * check already in flight and a busy machine.
 */
export const DRAIN_NOTICE_SECONDS = Math.ceil((HEALTH_CHECK.fall * HEALTH_CHECK.intervalMs + 1000) / 1000);

export function haproxyConfig(options: { port: number; web: Backend[]; realtime: Backend[]; bind?: string }): string {
  const servers = (nodes: Backend[]) => nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.port}`).join('\n');
  return `# Written by the cluster harness (scripts/cluster/haproxy.ts).
global
  maxconn 4096

defaults
  mode http
  # The client's address for the nodes (TRUST_PROXY=true).
  option forwardfor
  # One request per connection to a node: no idle connection of a draining
  # node can be picked for a request just as the node closes it.
  option http-server-close
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  timeout http-request 30s
  timeout queue 10s
  # Room sockets stay open for hours.
  timeout tunnel 1h
  timeout check ${CHECK_TIMEOUT_SECONDS}s
  # A refused connection (a node stopping or gone) is tried on another node;
  # so is a request that got no answer at all, when it is idempotent.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response
  default-server check inter ${HEALTH_CHECK.intervalMs} fall ${HEALTH_CHECK.fall} rise ${HEALTH_CHECK.rise}

frontend atrium
  bind ${options.bind ?? '127.0.0.1'}:${options.port}
  acl room_socket path_reg ^/v1/(rooms|live-spaces)/[^/]+/ws$
  use_backend realtime if room_socket
  default_backend web

backend web
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  acl idempotent method GET HEAD OPTIONS PUT DELETE
  http-request disable-l7-retry if !idempotent
${servers(options.web)}

backend realtime
  balance leastconn
  option httpchk GET /readyz
  http-check expect status 200
${servers(options.realtime)}
`;
}
