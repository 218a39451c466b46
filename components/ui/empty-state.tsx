export { EmptyState } from './card.tsx';
