/**
 * The demo casino's own words, in each language it speaks: one table per language, typed as the English one, so a
 * missing or extra key does not compile. The server renders the page with them (page.ts) and hands all three to the
 * page (public/casino.js), which switches language without a reload. `{name}` is filled in; a key ending in `_one`
 * or `_other` is chosen by Intl.PluralRules. Protocol words (balance_changed, onSessionExpired, HTTP codes) stay as
 * they are in every language: they are what a developer looks up.
 */
import type { Locale } from './casino-state.ts';

const en = {
  pageTitle: '{brand} Casino · Sports',
  brandHome: '{brand} Casino, home',
  brandKind: 'casino',
  sectionsLabel: 'Casino sections',
  sectionSlots: 'Slots',
  sectionLive: 'Live casino',
  sectionSports: 'Sports',
  sectionPromotions: 'Promotions',
  balance: 'Balance',
  balanceTitle: 'Your balance in the casino wallet (updated by balance_changed)',
  deposit: 'Deposit',
  logOut: 'Log out',
  join: 'Join',
  logIn: 'Log in',
  language: 'Language',
  devbarTitle: 'Demo casino',
  devbarTool: 'a development tool',
  devbarEmbedding: 'on its own origin, embedding the sportsbook at',
  apiReference: 'API reference',
  sportsbookLabel: 'Sportsbook',
  sportsbookTitle: '{brand} sportsbook',
  sidePanels: 'Developer panels',
  devTool: 'dev tool',
  traderTitle: 'Trader shortcut',
  traderHint:
    'The markets of open bets at this casino. A button settles one from the casino server with a trader token the ' +
    'demo made: a development shortcut, never part of a real casino.',
  traderEmptyVisitor: 'Log in, place a bet in the sportsbook, and its market shows here.',
  traderEmptyPlayer: 'No open bets yet: place one in the sportsbook and its market shows here.',
  endSession: 'End the sportsbook session',
  endSessionWhy: 'from the casino server, to watch',
  endSessionThen: 'fetch a new launch token.',
  eventsTitle: 'Sportsbook events',
  clear: 'Clear',
  eventsHint: 'What the SDK reports (protocol v1), newest first;',
  eventsHintArrow: 'marks the commands this page sent.',
  commandSent: 'command sent to the sportsbook',
  eventReceived: 'event from the sportsbook',
  loginTitle: 'Log in to {brand}',
  playerName: 'Player name',
  demoPlayers: 'Demo players',
  loginHint:
    "Any name works: a new name is a new casino account with a welcome balance. The casino's server then asks the " +
    'sportsbook for a session with its integration key; the browser only sees a launch token.',
  cancel: 'Cancel',
  cashierTitle: 'Cashier',
  cashierHint:
    "A fake cashier: the casino's server credits your casino wallet (the reference wallet's control API), then the " +
    'page asks the sportsbook to refresh its balance.',
  close: 'Close',
  credited: '{amount} credited to your casino wallet.',
  loginReason_place_bet: 'Log in to place your bet: the sportsbook asked (login_required, place_bet).',
  loginReason_my_bets: 'Log in to see your bets: the sportsbook asked (login_required, my_bets).',
  loginReason_login_button: 'You pressed Log in inside the sportsbook (login_required, login_button).',
  loginReason_deposit: 'Log in to deposit.',
  loginReason_join: 'Pick any name: a new name is a new account with a welcome balance.',
  winner_home: 'Home wins',
  winner_draw: 'Draw',
  winner_away: 'Away wins',
  teamWon: '{name} won',
  selectionTitle: '{who}: {selection} won, the other selections lost (odds {odds})',
  live: 'Live',
  liveScore: 'Live {score}',
  openBets_one: '{n} open bet',
  openBets_other: '{n} open bets',
  marketLine: '{competition} · {market} · {bets}, {stake} · settle as:',
  settleGroup: 'Settle {event}, {market}',
  settledResult: 'Settled: the sportsbook reports bet_settled when it next reads the open bets (every 15 s).',
  betsSettled_one: '{n} bet settled',
  betsSettled_other: '{n} bets settled',
  lastSettlement: 'Last settlement: {event}, {market}: {winner}. {settled}, {owed} owed to players.',
  sdkMissing: 'The SDK did not load from {url}: is the sportsbook running?',
  sessionFailed: 'The casino could not open a sportsbook session: {error}',
  error_invalid_name: 'Type a name of 1 to 32 characters.',
  error_login_required: 'Log in to the casino first.',
  error_starting: 'The demo is still starting: try again in a few seconds.',
  error_no_session: 'No sportsbook session to end: log in first.',
  startingTitle: 'Demo casino: starting',
  starting: 'The demo is starting: this page reloads in a moment.',
  faultTitle: 'Wallet fault switch',
  faultTag: 'demo operator',
  faultHint:
    "The casino's wallet refuses the next movement of the kind chosen here, once, and then answers normally again. " +
    "A refused credit, or a refused correction debit, is held in the staff console's Financial delivery, to retry or " +
    'resolve there.',
  faultChoice: 'What the wallet refuses next',
  faultCredit: 'the next credit (a payout, cash-out, refund or adjustment): 403 player_blocked, held for review',
  faultDebit:
    'the next debit: 402 insufficient_funds; a stake is refused at once (the player sees it), a correction debit is ' +
    'held for review',
  faultArm: 'Refuse the next one',
  faultDisarm: 'Call it off',
  faultOff: 'Off: the wallet answers every movement.',
  faultArmed_credit: 'Armed, one shot: the next credit is answered 403 player_blocked and no money moves.',
  faultArmed_debit: 'Armed, one shot: the next debit is answered 402 insufficient_funds and no money moves.',
  faultUsed: 'Last refused: {kind} {amount} ({status} {code}) at {time}. The wallet answers normally again.',
} as const;

/** Every message of the casino, by key: the English table's keys, each a string. */
export type Messages = { readonly [Key in keyof typeof en]: string };
export type MessageKey = keyof Messages;

const ptBR: Messages = {
  pageTitle: '{brand} Cassino · Esportes',
  brandHome: '{brand} Cassino, início',
  brandKind: 'cassino',
  sectionsLabel: 'Seções do cassino',
  sectionSlots: 'Caça-níqueis',
  sectionLive: 'Cassino ao vivo',
  sectionSports: 'Esportes',
  sectionPromotions: 'Promoções',
  balance: 'Saldo',
  balanceTitle: 'Seu saldo na carteira do cassino (atualizado por balance_changed)',
  deposit: 'Depositar',
  logOut: 'Sair',
  join: 'Cadastrar',
  logIn: 'Entrar',
  language: 'Idioma',
  devbarTitle: 'Cassino de demonstração',
  devbarTool: 'uma ferramenta de desenvolvimento',
  devbarEmbedding: 'em sua própria origem, com as apostas esportivas de',
  apiReference: 'Referência da API',
  sportsbookLabel: 'Apostas esportivas',
  sportsbookTitle: 'Apostas esportivas {brand}',
  sidePanels: 'Painéis para desenvolvedores',
  devTool: 'ferramenta dev',
  traderTitle: 'Atalho do trader',
  traderHint:
    'Os mercados das apostas em aberto neste cassino. Um botão liquida um deles pelo servidor do cassino, com um ' +
    'token de trader criado pela demo: um atalho de desenvolvimento, nunca parte de um cassino real.',
  traderEmptyVisitor: 'Entre, faça uma aposta nas apostas esportivas e o mercado dela aparece aqui.',
  traderEmptyPlayer: 'Nenhuma aposta em aberto: faça uma nas apostas esportivas e o mercado dela aparece aqui.',
  endSession: 'Encerrar a sessão das apostas esportivas',
  endSessionWhy: 'pelo servidor do cassino, para ver',
  endSessionThen: 'buscar um novo launch token.',
  eventsTitle: 'Eventos das apostas esportivas',
  clear: 'Limpar',
  eventsHint: 'O que o SDK informa (protocolo v1), do mais novo ao mais antigo;',
  eventsHintArrow: 'marca os comandos que esta página enviou.',
  commandSent: 'comando enviado às apostas esportivas',
  eventReceived: 'evento vindo das apostas esportivas',
  loginTitle: 'Entrar no {brand}',
  playerName: 'Nome do jogador',
  demoPlayers: 'Jogadores de demonstração',
  loginHint:
    'Qualquer nome serve: um nome novo é uma nova conta do cassino com um saldo de boas-vindas. O servidor do ' +
    'cassino então pede uma sessão às apostas esportivas com a sua chave de integração; o navegador só vê um ' +
    'launch token.',
  cancel: 'Cancelar',
  cashierTitle: 'Caixa',
  cashierHint:
    'Um caixa de mentira: o servidor do cassino credita a sua carteira do cassino (a API de controle da carteira de ' +
    'referência) e a página pede às apostas esportivas que atualizem o saldo.',
  close: 'Fechar',
  credited: '{amount} creditado na sua carteira do cassino.',
  loginReason_place_bet: 'Entre para fazer a sua aposta: as apostas esportivas pediram (login_required, place_bet).',
  loginReason_my_bets: 'Entre para ver as suas apostas: as apostas esportivas pediram (login_required, my_bets).',
  loginReason_login_button: 'Você tocou em Entrar dentro das apostas esportivas (login_required, login_button).',
  loginReason_deposit: 'Entre para depositar.',
  loginReason_join: 'Escolha qualquer nome: um nome novo é uma nova conta com um saldo de boas-vindas.',
  winner_home: 'Vitória do mandante',
  winner_draw: 'Empate',
  winner_away: 'Vitória do visitante',
  teamWon: '{name} venceu',
  selectionTitle: '{who}: {selection} venceu, as outras seleções perderam (odds {odds})',
  live: 'Ao vivo',
  liveScore: 'Ao vivo {score}',
  openBets_one: '{n} aposta em aberto',
  openBets_other: '{n} apostas em aberto',
  marketLine: '{competition} · {market} · {bets}, {stake} · liquidar como:',
  settleGroup: 'Liquidar {event}, {market}',
  settledResult:
    'Liquidado: as apostas esportivas informam bet_settled na próxima leitura das apostas em aberto (a cada 15 s).',
  betsSettled_one: '{n} aposta liquidada',
  betsSettled_other: '{n} apostas liquidadas',
  lastSettlement: 'Última liquidação: {event}, {market}: {winner}. {settled}, {owed} devidos aos jogadores.',
  sdkMissing: 'O SDK não carregou de {url}: as apostas esportivas estão no ar?',
  sessionFailed: 'O cassino não conseguiu abrir uma sessão das apostas esportivas: {error}',
  error_invalid_name: 'Digite um nome de 1 a 32 caracteres.',
  error_login_required: 'Entre no cassino primeiro.',
  error_starting: 'A demo ainda está iniciando: tente de novo em alguns segundos.',
  error_no_session: 'Nenhuma sessão das apostas esportivas para encerrar: entre primeiro.',
  startingTitle: 'Cassino de demonstração: iniciando',
  starting: 'A demo está iniciando: esta página recarrega em um instante.',
  faultTitle: 'Chave de falha da carteira',
  faultTag: 'operador da demo',
  faultHint:
    'A carteira do cassino recusa o próximo movimento do tipo escolhido aqui, uma vez, e depois volta a responder ' +
    'normalmente. Um crédito recusado, ou um débito de correção recusado, fica retido na Entrega financeira do ' +
    'console da equipe, para reenviar ou resolver lá.',
  faultChoice: 'O que a carteira recusa a seguir',
  faultCredit: 'o próximo crédito (pagamento, cash-out, reembolso ou ajuste): 403 player_blocked, retido para revisão',
  faultDebit:
    'o próximo débito: 402 insufficient_funds; uma aposta é recusada na hora (o jogador vê), um débito de correção ' +
    'fica retido para revisão',
  faultArm: 'Recusar o próximo',
  faultDisarm: 'Cancelar a falha',
  faultOff: 'Desligada: a carteira responde a todos os movimentos.',
  faultArmed_credit: 'Armada, uma vez só: o próximo crédito recebe 403 player_blocked e nenhum dinheiro se move.',
  faultArmed_debit: 'Armada, uma vez só: o próximo débito recebe 402 insufficient_funds e nenhum dinheiro se move.',
  faultUsed: 'Última recusa: {kind} {amount} ({status} {code}) às {time}. A carteira voltou a responder normalmente.',
};

const es: Messages = {
  pageTitle: '{brand} Casino · Deportes',
  brandHome: '{brand} Casino, inicio',
  brandKind: 'casino',
  sectionsLabel: 'Secciones del casino',
  sectionSlots: 'Tragamonedas',
  sectionLive: 'Casino en vivo',
  sectionSports: 'Deportes',
  sectionPromotions: 'Promociones',
  balance: 'Saldo',
  balanceTitle: 'Tu saldo en la billetera del casino (actualizado por balance_changed)',
  deposit: 'Depositar',
  logOut: 'Salir',
  join: 'Registro',
  logIn: 'Entrar',
  language: 'Idioma',
  devbarTitle: 'Casino de demostración',
  devbarTool: 'una herramienta de desarrollo',
  devbarEmbedding: 'en su propio origen, con las apuestas deportivas de',
  apiReference: 'Referencia de la API',
  sportsbookLabel: 'Apuestas deportivas',
  sportsbookTitle: 'Apuestas deportivas {brand}',
  sidePanels: 'Paneles para desarrolladores',
  devTool: 'herramienta dev',
  traderTitle: 'Atajo del trader',
  traderHint:
    'Los mercados de las apuestas abiertas en este casino. Un botón liquida uno desde el servidor del casino, con un ' +
    'token de trader creado por la demo: un atajo de desarrollo, nunca parte de un casino real.',
  traderEmptyVisitor: 'Entra, haz una apuesta en las apuestas deportivas y su mercado aparece aquí.',
  traderEmptyPlayer: 'Aún no hay apuestas abiertas: haz una en las apuestas deportivas y su mercado aparece aquí.',
  endSession: 'Terminar la sesión de las apuestas deportivas',
  endSessionWhy: 'desde el servidor del casino, para ver a',
  endSessionThen: 'pedir un nuevo launch token.',
  eventsTitle: 'Eventos de las apuestas deportivas',
  clear: 'Borrar',
  eventsHint: 'Lo que informa el SDK (protocolo v1), de lo más nuevo a lo más antiguo;',
  eventsHintArrow: 'marca los comandos que envió esta página.',
  commandSent: 'comando enviado a las apuestas deportivas',
  eventReceived: 'evento de las apuestas deportivas',
  loginTitle: 'Entrar en {brand}',
  playerName: 'Nombre del jugador',
  demoPlayers: 'Jugadores de demostración',
  loginHint:
    'Cualquier nombre sirve: un nombre nuevo es una nueva cuenta del casino con un saldo de bienvenida. El servidor ' +
    'del casino pide entonces una sesión a las apuestas deportivas con su clave de integración; el navegador solo ve ' +
    'un launch token.',
  cancel: 'Cancelar',
  cashierTitle: 'Caja',
  cashierHint:
    'Una caja de mentira: el servidor del casino acredita tu billetera del casino (la API de control de la billetera ' +
    'de referencia) y la página pide a las apuestas deportivas que actualicen el saldo.',
  close: 'Cerrar',
  credited: '{amount} acreditado en tu billetera del casino.',
  loginReason_place_bet:
    'Entra para hacer tu apuesta: las apuestas deportivas lo pidieron (login_required, place_bet).',
  loginReason_my_bets: 'Entra para ver tus apuestas: las apuestas deportivas lo pidieron (login_required, my_bets).',
  loginReason_login_button: 'Pulsaste Entrar dentro de las apuestas deportivas (login_required, login_button).',
  loginReason_deposit: 'Entra para depositar.',
  loginReason_join: 'Elige cualquier nombre: un nombre nuevo es una nueva cuenta con un saldo de bienvenida.',
  winner_home: 'Gana el local',
  winner_draw: 'Empate',
  winner_away: 'Gana el visitante',
  teamWon: 'Ganó {name}',
  selectionTitle: '{who}: ganó {selection}, las demás selecciones perdieron (cuota {odds})',
  live: 'En vivo',
  liveScore: 'En vivo {score}',
  openBets_one: '{n} apuesta abierta',
  openBets_other: '{n} apuestas abiertas',
  marketLine: '{competition} · {market} · {bets}, {stake} · liquidar como:',
  settleGroup: 'Liquidar {event}, {market}',
  settledResult:
    'Liquidado: las apuestas deportivas informan bet_settled la próxima vez que leen las apuestas abiertas (cada 15 s).',
  betsSettled_one: '{n} apuesta liquidada',
  betsSettled_other: '{n} apuestas liquidadas',
  lastSettlement: 'Última liquidación: {event}, {market}: {winner}. {settled}, {owed} debidos a los jugadores.',
  sdkMissing: 'El SDK no cargó desde {url}: ¿están en marcha las apuestas deportivas?',
  sessionFailed: 'El casino no pudo abrir una sesión de las apuestas deportivas: {error}',
  error_invalid_name: 'Escribe un nombre de 1 a 32 caracteres.',
  error_login_required: 'Entra primero en el casino.',
  error_starting: 'La demo aún está arrancando: inténtalo de nuevo en unos segundos.',
  error_no_session: 'No hay sesión de las apuestas deportivas que terminar: entra primero.',
  startingTitle: 'Casino de demostración: arrancando',
  starting: 'La demo está arrancando: esta página se recarga en un momento.',
  faultTitle: 'Interruptor de fallo de la billetera',
  faultTag: 'operador de la demo',
  faultHint:
    'La billetera del casino rechaza el próximo movimiento del tipo elegido aquí, una vez, y luego vuelve a ' +
    'responder con normalidad. Un crédito rechazado, o un débito de corrección rechazado, queda retenido en la ' +
    'Entrega financiera de la consola del personal, para reintentarlo o resolverlo allí.',
  faultChoice: 'Qué rechaza la billetera a continuación',
  faultCredit: 'el próximo crédito (un pago, cash-out, reembolso o ajuste): 403 player_blocked, retenido para revisión',
  faultDebit:
    'el próximo débito: 402 insufficient_funds; una apuesta se rechaza en el acto (el jugador lo ve), un débito de ' +
    'corrección queda retenido para revisión',
  faultArm: 'Rechazar el próximo',
  faultDisarm: 'Anular el fallo',
  faultOff: 'Apagado: la billetera responde a todos los movimientos.',
  faultArmed_credit: 'Activado, una sola vez: el próximo crédito recibe 403 player_blocked y no se mueve dinero.',
  faultArmed_debit: 'Activado, una sola vez: el próximo débito recibe 402 insufficient_funds y no se mueve dinero.',
  faultUsed:
    'Último rechazo: {kind} {amount} ({status} {code}) a las {time}. La billetera vuelve a responder con normalidad.',
};

export const MESSAGES: Readonly<Record<Locale, Messages>> = { en, 'pt-BR': ptBR, es };

/** A message with its `{placeholders}` filled in; a placeholder without a value stays as it is. */
export function fill(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
