export function App(): string {
  return 'acme';
}
