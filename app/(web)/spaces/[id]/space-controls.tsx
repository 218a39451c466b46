// Kept for imports of the old place: the space's client components live in components/spaces now.
export { SpaceSettingsForm } from '@/components/spaces/space-settings-form.tsx';
export { UploadForm } from '@/components/spaces/upload-form.tsx';
export { VisitorsChart } from '@/components/spaces/visitors-chart.tsx';
