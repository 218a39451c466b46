import type { Metadata } from 'next';
import { VersionChanges } from '@/components/spaces/version-changes.tsx';
import { Button, ButtonLink } from '@/components/ui/button.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { SelectField } from '@/components/ui/field.tsx';
import { Time } from '@/components/ui/time.tsx';
import type { Version } from '@/lib/schemas/spaces.ts';
import { compareVersions, listVersions } from '@/lib/spaces/publishing.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { one, spaceHref, versionNumber, type SearchParams } from '@/lib/web/space-page.ts';
import { spacePage } from '@/app/(web)/spaces/[id]/space-page.ts';

export const metadata: Metadata = { title: 'Compare versions' };
export const dynamic = 'force-dynamic';

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** Any two versions of a space, base and head: the files added, removed and changed going from one to the other, with their diffs. */
export default async function ComparePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }) {
  const { id } = await params;
  const search = await searchParams;
  const { caller, space } = await spacePage(id);
  const versions = await listVersions(caller, space.id);
  if (!versions.length) return <EmptyState title="No versions yet">Each push makes a version; once there are two, they can be compared here.</EmptyState>;
  const comparison = await orNotFound(compareVersions(caller, space.id, { base: versionNumber(one(search.base)), head: versionNumber(one(search.head)) }));
  const [base, head, diff] = [comparison.base.number, comparison.head.number, comparison.diff];
  const options = versions.map((v) => (
    <option key={v.number} value={v.number}>
      {v.number}
      {v.message ? ` · ${v.message.slice(0, 40)}` : ''}
    </option>
  ));
  const changes = diff.added.length + diff.changed.length + diff.removed.length;
  return (
    <Card title={`Version ${base} → version ${head}`} label="Compare versions" actions={<ButtonLink href={spaceHref(space.id, 'history')} variant="secondary" size="sm">All versions</ButtonLink>}>
      {/* A plain GET form: the comparison is an address to share. */}
      <form method="get" action={spaceHref(space.id, 'history/compare')} className="flex flex-wrap items-end gap-3">
        <SelectField label="Base version" name="base" defaultValue={base}>
          {options}
        </SelectField>
        <SelectField label="Compared with" name="head" defaultValue={head}>
          {options}
        </SelectField>
        <Button type="submit" variant="secondary">
          Compare
        </Button>
        <ButtonLink href={spaceHref(space.id, 'history/compare', { base: head, head: base })} variant="secondary">
          Swap
        </ButtonLink>
      </form>
      <p className="mt-4 text-sm text-muted">
        From <Described version={comparison.base} /> to <Described version={comparison.head} />:{' '}
        {changes
          ? `${plural(diff.added.length, 'file')} added, ${diff.changed.length.toLocaleString('en')} changed, ${diff.removed.length.toLocaleString('en')} removed, ${diff.unchanged.toLocaleString('en')} unchanged.`
          : `the same files (${plural(diff.unchanged, 'file')}).`}
      </p>
      <VersionChanges space={space} caller={caller} base={base} head={head} diff={diff} />
    </Card>
  );
}

function Described({ version }: { version: Version }) {
  return (
    <>
      version {version.number} (<Time ms={version.createdAt} />
      {version.author ? ` by @${version.author.handle}` : ''})
    </>
  );
}
