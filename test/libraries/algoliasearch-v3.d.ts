// algoliasearch v3 (npm alias algoliasearch-v3) ships no types: its tests read
// the answers as `any`.
declare module 'algoliasearch-v3' {
  const algoliasearch: (applicationID: string, apiKey: string, options?: Record<string, unknown>) => any;
  export default algoliasearch;
}
