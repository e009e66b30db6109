import { render } from 'preact';
import { browser } from 'wxt/browser';
import { Dashboard } from '../../components/dashboard/Dashboard';
import { t } from '../../utils/i18n/t';
import './style.css';

document.documentElement.lang = browser.i18n.getUILanguage();
document.title = t('dashboardTitle');
render(<Dashboard />, document.getElementById('app')!);
