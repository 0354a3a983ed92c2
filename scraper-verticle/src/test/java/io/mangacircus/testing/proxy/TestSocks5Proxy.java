package io.mangacircus.testing.proxy;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.socksx.v5.DefaultSocks5CommandResponse;
import io.netty.handler.codec.socksx.v5.DefaultSocks5InitialResponse;
import io.netty.handler.codec.socksx.v5.DefaultSocks5PasswordAuthResponse;
import io.netty.handler.codec.socksx.v5.Socks5AddressType;
import io.netty.handler.codec.socksx.v5.Socks5AuthMethod;
import io.netty.handler.codec.socksx.v5.Socks5CommandRequest;
import io.netty.handler.codec.socksx.v5.Socks5CommandRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5CommandStatus;
import io.netty.handler.codec.socksx.v5.Socks5CommandType;
import io.netty.handler.codec.socksx.v5.Socks5InitialRequest;
import io.netty.handler.codec.socksx.v5.Socks5InitialRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5Message;
import io.netty.handler.codec.socksx.v5.Socks5PasswordAuthRequest;
import io.netty.handler.codec.socksx.v5.Socks5PasswordAuthRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5PasswordAuthStatus;
import io.netty.handler.codec.socksx.v5.Socks5ServerEncoder;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small SOCKS5 proxy on loopback for tests, on netty's SOCKS codec: it asks for username and password (RFC 1929)
 * whenever the client offers them, refuses a client that does not, relays CONNECT tunnels, and records the users it
 * was given and the targets it connected.
 */
public final class TestSocks5Proxy {

  private final String username;
  private final String password;
  private final List<String> users = Collections.synchronizedList(new ArrayList<>());
  private final List<String> targets = Collections.synchronizedList(new ArrayList<>());
  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private Channel server;

  private TestSocks5Proxy(String username, String password) {
    this.username = username;
    this.password = password;
  }

  /** Starts on {@code 127.0.0.1} and a free port, accepting only {@code username} and {@code password}. */
  public static TestSocks5Proxy start(String username, String password) throws InterruptedException {
    TestSocks5Proxy proxy = new TestSocks5Proxy(username, password);
    proxy.server = new ServerBootstrap().group(proxy.group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            channel.pipeline().addLast(Socks5ServerEncoder.DEFAULT, new Socks5InitialRequestDecoder(),
                proxy.new Handshake());
          }
        })
        .bind("127.0.0.1", 0).sync().channel();
    return proxy;
  }

  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** The users clients authenticated as (right or wrong), in order. */
  public List<String> users() {
    synchronized (users) {
      return List.copyOf(users);
    }
  }

  /** The {@code host:port} targets it connected for its clients, in order. */
  public List<String> targets() {
    synchronized (targets) {
      return List.copyOf(targets);
    }
  }

  public void close() throws InterruptedException {
    server.close().sync();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
  }

  /** Greeting, then authentication, then one CONNECT; after it the connection is a relay. */
  private final class Handshake extends SimpleChannelInboundHandler<Socks5Message> {

    @Override
    protected void channelRead0(ChannelHandlerContext context, Socks5Message message) {
      if (message instanceof Socks5InitialRequest greeting) {
        // A client with credentials offers NO_AUTH as well: choosing PASSWORD is what makes them checked.
        if (!greeting.authMethods().contains(Socks5AuthMethod.PASSWORD)) {
          context.writeAndFlush(new DefaultSocks5InitialResponse(Socks5AuthMethod.UNACCEPTED))
              .addListener(ChannelFutureListener.CLOSE);
          return;
        }
        context.pipeline().replace(Socks5InitialRequestDecoder.class, "auth", new Socks5PasswordAuthRequestDecoder());
        context.writeAndFlush(new DefaultSocks5InitialResponse(Socks5AuthMethod.PASSWORD));
      } else if (message instanceof Socks5PasswordAuthRequest auth) {
        users.add(auth.username());
        if (!username.equals(auth.username()) || !password.equals(auth.password())) {
          context.writeAndFlush(new DefaultSocks5PasswordAuthResponse(Socks5PasswordAuthStatus.FAILURE))
              .addListener(ChannelFutureListener.CLOSE);
          return;
        }
        context.pipeline().replace(Socks5PasswordAuthRequestDecoder.class, "command",
            new Socks5CommandRequestDecoder());
        context.writeAndFlush(new DefaultSocks5PasswordAuthResponse(Socks5PasswordAuthStatus.SUCCESS));
      } else if (message instanceof Socks5CommandRequest command && command.type() == Socks5CommandType.CONNECT) {
        connect(context, command);
      } else {
        context.close();
      }
    }

    private void connect(ChannelHandlerContext context, Socks5CommandRequest command) {
      Channel inbound = context.channel();
      inbound.config().setAutoRead(false);
      ChannelFuture outbound = new Bootstrap().group(inbound.eventLoop()).channel(NioSocketChannel.class)
          .handler(new Relay(inbound)).connect(command.dstAddr(), command.dstPort());
      outbound.addListener((ChannelFutureListener) connected -> {
        if (!connected.isSuccess()) {
          inbound.writeAndFlush(new DefaultSocks5CommandResponse(Socks5CommandStatus.FAILURE,
              Socks5AddressType.IPv4)).addListener(ChannelFutureListener.CLOSE);
          return;
        }
        targets.add(command.dstAddr() + ":" + command.dstPort());
        int local = ((InetSocketAddress) connected.channel().localAddress()).getPort();
        inbound.writeAndFlush(new DefaultSocks5CommandResponse(Socks5CommandStatus.SUCCESS, Socks5AddressType.IPv4,
            "127.0.0.1", local)).addListener((ChannelFutureListener) written -> {
              inbound.pipeline().remove(Socks5CommandRequestDecoder.class);
              inbound.pipeline().remove(Socks5ServerEncoder.class);
              inbound.pipeline().addLast(new Relay(connected.channel()));
              inbound.pipeline().remove(Handshake.this);
              inbound.config().setAutoRead(true);
            });
      });
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      context.close();
    }
  }

  /** Copies what one side reads to the other; closes the other when one closes. */
  private static final class Relay extends ChannelInboundHandlerAdapter {
    private final Channel to;

    Relay(Channel to) {
      this.to = to;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
      to.writeAndFlush(message);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
      to.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      context.close();
    }
  }
}
