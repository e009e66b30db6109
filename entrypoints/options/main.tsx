import { render } from 'preact';
import { Options } from '../../components/Options';
import '../popup/style.css';

document.documentElement.lang = navigator.language;
render(<Options />, document.getElementById('app')!);
