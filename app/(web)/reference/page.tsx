import type { Metadata } from 'next';
import { ApiReference } from './api-reference.tsx';

export const metadata: Metadata = { title: 'API reference' };

export default function ReferencePage() {
  return <ApiReference />;
}
