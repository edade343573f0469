// The front end's lint (make check): the pages' ES modules under clients/web/js, in the browser.
// Rules that find bugs, none about formatting (ESLint's recommended set, plus eqeqeq), so code new
// pages write in the house style passes as it is.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["clients/web/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      // comments show names with an ideographic space (the search folds it)
      "no-irregular-whitespace": ["error", { skipComments: true }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
];
