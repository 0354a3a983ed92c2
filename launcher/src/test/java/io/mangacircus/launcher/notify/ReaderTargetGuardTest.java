package io.mangacircus.launcher.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.notify.ReaderTargetGuard.Reach;
import io.mangacircus.launcher.notify.ReaderTargetGuard.Refused;
import io.mangacircus.launcher.notify.ReaderTargetGuard.Verdict;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where a reader's alert may go, decided with a resolver the test controls (no DNS): literal addresses, names that
 * resolve to internal addresses, the admin's allowed hosts, and the address the request is to connect to.
 */
class ReaderTargetGuardTest {

  private final Map<String, List<InetAddress>> names = new HashMap<>();
  private final List<String> looked = new ArrayList<>();

  /** Literal addresses resolve to themselves (as the JVM's resolver does); names only as the test says. */
  private final ReaderTargetGuard.HostResolver resolver = host -> {
    looked.add(host);
    if (host.contains(":") || host.matches("[0-9.]+")) {
      return List.of(InetAddress.getByName(host));
    }
    List<InetAddress> found = names.get(host);
    if (found == null) {
      throw new UnknownHostException(host);
    }
    return found;
  };

  private void name(String host, String... addresses) throws Exception {
    List<InetAddress> list = new ArrayList<>();
    for (String a : addresses) {
      list.add(InetAddress.getByAddress(host, InetAddress.getByName(a).getAddress()));
    }
    names.put(host, list);
  }

  private ReaderTargetGuard guard(String... allowed) {
    return new ReaderTargetGuard(Arrays.asList(allowed), resolver);
  }

  private static String refusal(Verdict verdict) {
    assertThat(verdict).isInstanceOf(Refused.class);
    return ((Refused) verdict).reason();
  }

  @Test
  void literalInternalAddressesAreRefusedWithTheKindNamedAndNoAddress() {
    ReaderTargetGuard guard = guard();
    assertThat(refusal(guard.check("http://169.254.169.254/latest/meta-data/iam"))).isEqualTo("its host is a "
        + "link-local address or resolves to one; alerts go only to public addresses unless the server's admin allows "
        + "the host (notifications.readerAlertAllowedHosts)");
    assertThat(refusal(guard.check("http://127.0.0.1:8080/hook"))).startsWith("its host is a loopback address");
    assertThat(refusal(guard.check("https://10.1.2.3/hook"))).startsWith("its host is a private address (RFC 1918)");
    assertThat(refusal(guard.check("http://[::1]:9000/x"))).startsWith("its host is a loopback address");
    assertThat(refusal(guard.check("http://[fd00::5]/x"))).startsWith("its host is a unique-local address");
    assertThat(refusal(guard.check("http://[::ffff:192.168.0.1]/x"))).startsWith("its host is a private address");
    assertThat(refusal(guard.check("http://0.0.0.0:8080/"))).startsWith("its host is an unspecified address");
    assertThat(refusal(guard.check("http://100.100.100.200/"))).startsWith("its host is a shared carrier-grade NAT");
    assertThat(refusal(guard.check("http://224.0.0.251/"))).startsWith("its host is a multicast address");
    for (String url : List.of("http://169.254.169.254/latest", "http://127.0.0.1:8080/hook", "http://[::1]:9000/x")) {
      assertThat(refusal(guard.check(url))).as(url).doesNotContain("169.254", "127.0", "::1", "8080", "9000");
    }
  }

  @Test
  void aNameIsRefusedWhenAnyOfItsAddressesIsInternal() throws Exception {
    name("metadata.example.org", "169.254.169.254");
    name("split.example.org", "93.184.215.14", "10.0.0.7");
    name("ntfy.example.org", "93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c");
    ReaderTargetGuard guard = guard();

    assertThat(refusal(guard.check("http://metadata.example.org/latest"))).startsWith("its host is a link-local");
    assertThat(refusal(guard.check("https://split.example.org/hook"))).startsWith("its host is a private address")
        .doesNotContain("split.example.org", "10.0.0.7");
    assertThat(guard.check("https://ntfy.example.org/topic")).isEqualTo(new Reach(true, "93.184.215.14", 443,
        "/topic", "ntfy.example.org"));
  }

  @Test
  void aPublicTargetIsReachedAtTheAddressThatWasCheckedWithItsPathQueryAndPort() throws Exception {
    name("hooks.example.org", "93.184.215.14");
    ReaderTargetGuard guard = guard();

    assertThat(guard.check("http://hooks.example.org:8443/a/b%20c?key=1&x=%2F")).isEqualTo(new Reach(false,
        "93.184.215.14", 8443, "/a/b%20c?key=1&x=%2F", "hooks.example.org"));
    assertThat(guard.check("https://HOOKS.example.org.")).as("upper case and a final dot are the same host")
        .isEqualTo(new Reach(true, "93.184.215.14", 443, "/", "hooks.example.org"));
    assertThat(guard.check("http://8.8.8.8/x")).as("a dotted address is its own host: no virtual host")
        .isEqualTo(new Reach(false, "8.8.8.8", 80, "/x", null));
    assertThat(guard.check("http://[2606:4700:4700::1111]/x")).isEqualTo(new Reach(false, "2606:4700:4700:0:0:0:0:1111",
        80, "/x", "[2606:4700:4700::1111]"));
  }

  @Test
  void theAdminsAllowedHostsMayBeInternalAndAreStillReachedAtTheResolvedAddress() throws Exception {
    name("ntfy.home.lan", "192.168.1.20");
    ReaderTargetGuard guard = guard("127.0.0.1", "NTFY.home.lan", "[::1]");

    assertThat(guard.check("http://127.0.0.1:8080/hook")).isEqualTo(new Reach(false, "127.0.0.1", 8080, "/hook",
        null));
    assertThat(guard.check("http://ntfy.home.lan/alerts")).isEqualTo(new Reach(false, "192.168.1.20", 80, "/alerts",
        "ntfy.home.lan"));
    assertThat(guard.check("http://[::1]:9000/x")).isInstanceOf(Reach.class);
    assertThat(refusal(guard.check("http://127.0.0.2:8080/hook"))).as("only the host as allowed")
        .startsWith("its host is a loopback address");
    assertThat(refusal(guard.check("http://169.254.169.254/latest"))).startsWith("its host is a link-local");
  }

  @Test
  void whatIsNotAnHttpAddressOfAKnownHostIsRefusedBeforeOrWithoutALookup() {
    ReaderTargetGuard guard = guard();

    assertThat(refusal(guard.check("ftp://ntfy.example.org/x"))).isEqualTo("the address must start with http:// or "
        + "https://");
    assertThat(refusal(guard.check("http://exa mple.org/"))).isEqualTo("the address is not a valid URL");
    assertThat(refusal(guard.check("http:///path"))).isEqualTo("the address names no host");
    assertThat(refusal(guard.check("http://user:secret@hooks.example.org/"))).isEqualTo("the address must not carry "
        + "a user name or password before its host");
    assertThat(looked).as("no lookup for any of those").isEmpty();
    assertThat(refusal(guard.check("http://nowhere.example.org/"))).isEqualTo("its host does not resolve to any "
        + "address");
    assertThat(looked).containsExactly("nowhere.example.org");
  }

  @Test
  void theNameIsLookedUpAtEveryCheckSoThatARebindingIsSeen() throws Exception {
    ReaderTargetGuard guard = guard();
    name("rebind.example.org", "93.184.215.14");
    assertThat(guard.check("http://rebind.example.org/hook")).isInstanceOf(Reach.class);

    name("rebind.example.org", "127.0.0.1");
    assertThat(refusal(guard.check("http://rebind.example.org/hook"))).startsWith("its host is a loopback address");
    assertThat(looked).containsExactly("rebind.example.org", "rebind.example.org");
  }
}
