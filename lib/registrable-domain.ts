// The registrable domain of a host name (its "site": what cookies with a
// Domain attribute and SameSite rules span), decided without the Public Suffix
// List, which is not installed. lib/config.ts asks it whether published sites
// would share the app's, so where unsure it errs towards "shared".

// Second levels under which a registry itself hands out names (example.co.uk):
// there the registrable domain is three labels. Only suffixes known to be
// public belong here: a listed one that is not would make two hosts of one
// domain look apart (a.or.xx and b.or.xx), while a missing one only refuses a
// configuration the operator can declare safe.
const TWO_LABEL_SUFFIXES = new Set(
  [
    'ac.uk co.uk gov.uk ltd.uk me.uk net.uk nhs.uk org.uk plc.uk sch.uk',
    'asn.au com.au edu.au gov.au id.au net.au org.au',
    'ac.nz co.nz geek.nz gen.nz govt.nz net.nz org.nz school.nz',
    'ac.jp ad.jp co.jp ed.jp go.jp gr.jp lg.jp ne.jp or.jp',
    'ac.kr co.kr go.kr ne.kr or.kr',
    'ac.za co.za gov.za net.za org.za',
    'ac.in co.in edu.in firm.in gen.in gov.in ind.in net.in org.in res.in',
    'ac.cn com.cn edu.cn gov.cn net.cn org.cn',
    'com.br edu.br gov.br net.br org.br',
    'ac.il co.il org.il',
    'co.at or.at com.ar com.hk com.mx com.pl com.sg com.tr com.tw co.id co.th',
  ].flatMap((line) => line.split(' ')),
);

/** The last two labels of `hostname`, three under a suffix above; an address or a one-label name is its own. */
export function registrableDomain(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host.startsWith('[') || /^[\d.]+$/.test(host)) return host;
  const labels = host.split('.');
  const keep = labels.length > 2 && TWO_LABEL_SUFFIXES.has(labels.slice(-2).join('.')) ? 3 : 2;
  return labels.slice(-keep).join('.');
}
