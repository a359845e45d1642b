import { defineConfig } from 'vite';

export default defineConfig({
  // the worker imports modules: bundle it as one (Vite's default, iife, cannot split)
  worker: { format: 'es' },
  // top-level await in the page
  build: { target: 'es2022' },
});
