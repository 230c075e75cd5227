export * from "./load-seahelm.js";
