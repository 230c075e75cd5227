export { type ScoreCliIo, SCORE_HELP, runScoreCli } from "./run-score-cli.js";
