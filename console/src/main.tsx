import { render } from 'preact';
import { App } from './app';

const root = document.getElementById('app')!;
root.replaceChildren(); // the "Loading…" placeholder from index.html (Preact 11 renders beside existing nodes)
render(<App />, root);
