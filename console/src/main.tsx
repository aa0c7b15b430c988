import { render } from 'preact';
import { Console } from './Console.tsx';
import '../../web/src/theme/tokens.css';
import './console.css';

const root = document.getElementById('console')!;
render(<Console />, root);
root.removeAttribute('aria-busy');
