import { render } from 'preact';
import { Console } from './Console.tsx';
import '../../ui-shared/tokens.css';
import './console.css';

const root = document.getElementById('console')!;
render(<Console />, root);
root.removeAttribute('aria-busy');
