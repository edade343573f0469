// Swagger UI for the hub's own /openapi.json, from the files shipped with the package (no CDN):
// a script of its own because the page's Content-Security-Policy allows no inline script.
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,  // the online validator badge would call out to the internet
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
    layout: "BaseLayout",
    persistAuthorization: false,
  });
});
