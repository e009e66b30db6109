import { render } from 'preact';
import { Popup } from '../../components/Popup';
import './style.css';

document.documentElement.lang = navigator.language;
render(<Popup />, document.getElementById('app')!);
