import { render } from 'preact';

render(<main>MapSweep</main>, document.getElementById('app')!);
