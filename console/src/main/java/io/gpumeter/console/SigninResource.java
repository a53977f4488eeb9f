package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * Signing in with a pasted token (a form POST), a link carrying a token (checked, shown, then signed in with a
 * click) or the one-time link, and signing out (a POST). Every token is verified before it signs anyone in; the only
 * changes the console makes are to its own cookie.
 */
@Path("/")
public class SigninResource {

    private final Session session;
    private final SigninCodes codes;
    private final TokenCheck check;
    private final ObjectMapper json;
    private final Template signin;

    public SigninResource(Session session, SigninCodes codes, TokenCheck check, ObjectMapper json,
                          @Location("signin.html") Template signin) {
        this.session = session;
        this.codes = codes;
        this.check = check;
        this.json = json;
        this.signin = signin;
    }

    /** The start page: the fleet for a fleet reader, the hours for a tenant. */
    @GET
    public Response index(@CookieParam(Session.COOKIE) String cookie) {
        String to = session.live(cookie, Instant.now()).map(v -> v.fleet() ? "/fleet" : "/hours").orElse("/signin");
        return Response.seeOther(URI.create(to)).build();
    }

    @GET
    @Path("signin")
    @Produces(MediaType.TEXT_HTML)
    public Response form(@QueryParam("code") String code, @QueryParam("next") String next) {
        if (code != null) {
            Optional<Viewer> viewer = codes.consume(code).flatMap(t -> check.verify(t).viewer());
            if (viewer.isPresent()) {
                return Response.seeOther(URI.create(Session.safeNext(next))).cookie(session.open(viewer.get())).build();
            }
            return Response.ok(page(next, Message.error("This sign-in link has been used or is not valid",
                    "A sign-in link works once.", "Paste a token below: ./gpumeter token --groups admin prints one."))).build();
        }
        return Response.ok(page(next, null)).build();
    }

    /** Signs in with a token the user pasted or confirmed, once the console has verified it. */
    @POST
    @Path("signin")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public Response signIn(@FormParam("token") String token, @FormParam("next") String next) {
        Viewer.Parsed parsed = check.verify(token);
        if (parsed.viewer().isEmpty()) {
            return Response.status(Response.Status.BAD_REQUEST)
                    .entity(page(next, Message.error("You are not signed in", parsed.problem(), null))).build();
        }
        return Response.seeOther(URI.create(Session.safeNext(next))).cookie(session.open(parsed.viewer().get())).build();
    }

    /**
     * Whose token a link carries, for the sign-in page to show before anyone clicks: subject, groups, tenant and
     * expiry once the signature is verified, or a problem naming {@code token}. Signs no one in.
     */
    @POST
    @Path("signin/verify")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces({MediaType.APPLICATION_JSON, "application/problem+json"})
    public Response verify(@FormParam("token") String token) {
        Viewer.Parsed parsed = check.verify(token);
        if (parsed.viewer().isEmpty()) {
            ObjectNode problem = json.createObjectNode().put("type", "about:blank").put("title", "This token signs no one in")
                    .put("status", 400).put("detail", parsed.problem()).put("field", "token");
            return Response.status(Response.Status.BAD_REQUEST).type("application/problem+json").entity(problem.toString()).build();
        }
        Viewer v = parsed.viewer().get();
        ObjectNode holder = json.createObjectNode().put("subject", v.subject()).put("role", v.role()).put("tenant", v.tenant())
                .put("expires", v.expires().toString());
        var groups = holder.putArray("groups");
        v.groups().forEach(groups::add);
        return Response.ok(holder.toString(), MediaType.APPLICATION_JSON).build();
    }

    @POST
    @Path("signout")
    public Response signOut(@CookieParam(Session.COOKIE) String cookie) {
        return Response.seeOther(URI.create("/signin")).cookie(session.signOut(cookie)).build();
    }

    private TemplateInstance page(String next, Message message) {
        return signin.data("next", Session.safeNext(next)).data("message", message);
    }
}
