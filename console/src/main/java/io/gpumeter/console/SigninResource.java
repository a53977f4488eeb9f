package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.time.Instant;
import java.util.Optional;

/**
 * Signing in with a pasted token (a form POST) or a one-time link, and signing out (a POST). The only changes the
 * console makes are to its own cookie.
 */
@Path("/")
public class SigninResource {

    private final Session session;
    private final SigninCodes codes;
    private final ObjectMapper json;
    private final Template signin;

    public SigninResource(Session session, SigninCodes codes, ObjectMapper json, @Location("signin.html") Template signin) {
        this.session = session;
        this.codes = codes;
        this.json = json;
        this.signin = signin;
    }

    /** The start page: the fleet for a fleet reader, the hours for a tenant. */
    @GET
    public Response index(@CookieParam(Session.COOKIE) String cookie) {
        Viewer.Parsed parsed = Viewer.parse(cookie, json, Instant.now());
        String to = parsed.viewer().map(v -> v.fleet() ? "/fleet" : "/hours").orElse("/signin");
        return Response.seeOther(URI.create(to)).build();
    }

    @GET
    @Path("signin")
    @Produces(MediaType.TEXT_HTML)
    public Response form(@QueryParam("code") String code, @QueryParam("next") String next) {
        if (code != null) {
            Optional<String> token = codes.consume(code);
            Optional<Viewer> viewer = token.flatMap(t -> Viewer.parse(t, json, Instant.now()).viewer());
            if (viewer.isPresent()) {
                return Response.seeOther(URI.create(Session.safeNext(next))).cookie(session.open(viewer.get())).build();
            }
            return Response.ok(page(next, Message.error("This sign-in link has been used or is not valid",
                    "A sign-in link works once.", "Paste a token below: ./gpumeter token --groups admin prints one."))).build();
        }
        return Response.ok(page(next, null)).build();
    }

    @POST
    @Path("signin")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public Response signIn(@FormParam("token") String token, @FormParam("next") String next) {
        Viewer.Parsed parsed = Viewer.parse(token, json, Instant.now());
        if (parsed.viewer().isEmpty()) {
            return Response.status(Response.Status.BAD_REQUEST)
                    .entity(page(next, Message.error("You are not signed in", parsed.problem(), null))).build();
        }
        return Response.seeOther(URI.create(Session.safeNext(next))).cookie(session.open(parsed.viewer().get())).build();
    }

    @POST
    @Path("signout")
    public Response signOut() {
        return Response.seeOther(URI.create("/signin")).cookie(session.clear()).build();
    }

    private TemplateInstance page(String next, Message message) {
        return signin.data("next", Session.safeNext(next)).data("message", message);
    }
}
