// The HAProxy configuration of the cluster harness, which docs/deploy.md
// gives as the reference: room sockets to the realtime nodes, everything else
// to the web nodes, a node used only while its /readyz answers 200, and a
// request retried on another node only when that is safe.
export type Backend = { name: string; port: number };

export function haproxyConfig(options: { port: number; web: Backend[]; realtime: Backend[]; checkIntervalMs: number; bind?: string }): string {
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
  # A refused connection (a node stopping or gone) is tried on another node;
  # so is a request that got no answer at all, when it is idempotent.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response
  default-server check inter ${options.checkIntervalMs} fall 2 rise 1

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
