package io.mangacircus.launcher.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

/** Hazelcast and event-bus settings for the daemon pair: TCP/IP join to the configured members, no multicast. */
public final class ClusterSetup {

  private ClusterSetup() {
  }

  /** A cluster manager joined to {@code cluster.members} on the bind address. */
  public static HazelcastClusterManager clusterManager(MangaCircusConfig config) {
    return new HazelcastClusterManager(hazelcastConfig(config));
  }

  /** The Hazelcast member settings behind {@link #clusterManager}. */
  static Config hazelcastConfig(MangaCircusConfig config) {
    MangaCircusConfig.Cluster cluster = config.cluster();
    Config hazelcast = ConfigUtil.loadConfig();
    hazelcast.setClusterName(cluster.name());
    hazelcast.setProperty("hazelcast.phone.home.enabled", "false");
    hazelcast.setProperty("hazelcast.logging.type", "slf4j");
    hazelcast.setProperty("hazelcast.shutdownhook.enabled", "false");
    hazelcast.setProperty("hazelcast.wait.seconds.before.join", "0");
    // A member that has left is dropped after three failed reconnects. When its address vanishes with it (a stopped
    // container, a host switched off) each try waits for the connect timeout: 10 s by default, 2 s here, so the
    // other member notices (and can itself stop) within seconds instead of ~20 s. A LAN pair connects far faster.
    hazelcast.setProperty("hazelcast.socket.connect.timeout.seconds", "2");
    NetworkConfig network = hazelcast.getNetworkConfig();
    network.setPort(cluster.port()).setPortAutoIncrement(true);
    String bind = config.http().bind();
    if (!"0.0.0.0".equals(bind)) {
      // Pin the member address to the bind address. Not with interface matching: that also drops every member
      // listed by a host name resolving outside the bind address (e.g. the other container's service name).
      hazelcast.setProperty("hazelcast.local.localAddress", bind);
      // And listen only there: Hazelcast binds every interface by default, which would expose the cluster port on a
      // machine whose operator chose a loopback or private bind address.
      hazelcast.setProperty("hazelcast.socket.bind.any", "false");
    }
    if (!cluster.publicHost().isEmpty()) {
      network.setPublicAddress(cluster.publicHost());
    }
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(cluster.members());
    return hazelcast;
  }

  /** Event-bus transport bound to the same address the members use. */
  public static EventBusOptions eventBus(MangaCircusConfig config) {
    String publicHost = config.cluster().publicHost().isEmpty() ? config.http().bind() : config.cluster().publicHost();
    return new EventBusOptions().setHost(config.http().bind()).setClusterPublicHost(publicHost);
  }
}
