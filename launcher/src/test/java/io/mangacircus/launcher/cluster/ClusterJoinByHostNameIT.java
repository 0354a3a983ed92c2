package io.mangacircus.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.mangacircus.launcher.config.ConfigLoader;
import io.mangacircus.launcher.config.ConfigLoader.CommandLineOverrides;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.mangacircus.launcher.testing.FreePorts;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member bound to one address joins a peer listed by host name that resolves to another address, as in a
 * compose network where each container binds its own address and lists the other by service name. On one machine,
 * the peer binds loopback and is listed as {@code localhost}; this member binds the machine's network address.
 */
@Tag("cluster")
class ClusterJoinByHostNameIT {

  @TempDir
  Path work;

  private MangaCircusConfig config(String clusterName, int port, String bind, String member) throws Exception {
    Path file = work.resolve(bind + ".json");
    Files.writeString(file, "{\"cluster\": {\"name\": \"" + clusterName + "\", \"port\": " + port + "}}");
    return new ConfigLoader().load(Optional.of(file), Map.of(),
        new CommandLineOverrides(null, null, null, bind, List.of(member)));
  }

  private static Optional<String> networkAddress() throws SocketException {
    return NetworkInterface.networkInterfaces()
        .filter(ni -> {
          try {
            return ni.isUp() && !ni.isLoopback();
          } catch (SocketException e) {
            return false;
          }
        })
        .flatMap(NetworkInterface::inetAddresses)
        .filter(address -> address instanceof Inet4Address)
        .map(address -> address.getHostAddress())
        .findFirst();
  }

  @Test
  void memberBoundToItsOwnAddressJoinsAPeerListedByHostName() throws Exception {
    Optional<String> own = networkAddress();
    assumeTrue(own.isPresent(), "needs a non-loopback IPv4 address");
    String clusterName = "mc-test-" + UUID.randomUUID();
    int peerPort = FreePorts.next();
    int ownPort = FreePorts.next();
    MangaCircusConfig peer = config(clusterName, peerPort, "127.0.0.1", own.get() + ":" + ownPort);
    MangaCircusConfig member = config(clusterName, ownPort, own.get(), "localhost:" + peerPort);

    HazelcastInstance a = Hazelcast.newHazelcastInstance(ClusterSetup.hazelcastConfig(peer));
    try {
      HazelcastInstance b = Hazelcast.newHazelcastInstance(ClusterSetup.hazelcastConfig(member));
      try {
        assertThat(b.getCluster().getMembers()).as("members seen by the member listing its peer by name").hasSize(2);
        assertThat(b.getCluster().getLocalMember().getAddress().getHost()).isEqualTo(own.get());
        assertThat(a.getCluster().getLocalMember().getAddress().getHost()).isEqualTo("127.0.0.1");
      } finally {
        b.getLifecycleService().terminate();
      }
    } finally {
      a.getLifecycleService().terminate();
    }
  }
}
