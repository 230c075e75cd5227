export { type ScoreCliIo, SCORE_USAGE, runScoreCli } from "./run-score-cli.js";
