-- Made by tests/data/make_pre_migrations_db.py from commit 9c7e156.
--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: account; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account (
    id integer NOT NULL,
    name character varying(32) NOT NULL,
    name_key character varying(32) NOT NULL,
    password_hash character varying(255),
    role character varying(16) NOT NULL,
    lang character varying(4) NOT NULL,
    encoding character varying(16),
    color boolean,
    autopass character varying(8),
    created_at timestamp with time zone NOT NULL,
    last_login timestamp with time zone,
    muted_until timestamp with time zone
);


--
-- Name: account_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.account_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: account_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.account_id_seq OWNED BY public.account.id;


--
-- Name: action_log; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.action_log (
    id integer NOT NULL,
    step integer NOT NULL,
    seat integer NOT NULL,
    action jsonb NOT NULL,
    by character varying(16) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    table_id integer NOT NULL
);


--
-- Name: TABLE action_log; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.action_log IS 'One accepted action. Committed before anyone hears its result.';


--
-- Name: action_log_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.action_log_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: action_log_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.action_log_id_seq OWNED BY public.action_log.id;


--
-- Name: ban; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ban (
    id integer NOT NULL,
    name_key character varying(32),
    address character varying(64),
    until timestamp with time zone,
    by character varying(32) NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: ban_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.ban_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: ban_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.ban_id_seq OWNED BY public.ban.id;


--
-- Name: game_table; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.game_table (
    id integer NOT NULL,
    game character varying(32) NOT NULL,
    options jsonb NOT NULL,
    seed bigint NOT NULL,
    host character varying(32) NOT NULL,
    state character varying(16) NOT NULL,
    seats_total integer NOT NULL,
    deadline_at timestamp with time zone,
    deadline_step integer,
    paused_seconds double precision,
    master character varying(32),
    outcome jsonb,
    previous integer,
    created_at timestamp with time zone NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone
);


--
-- Name: game_table_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.game_table_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: game_table_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.game_table_id_seq OWNED BY public.game_table.id;


--
-- Name: inbox_item; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.inbox_item (
    id integer NOT NULL,
    kind character varying(16) NOT NULL,
    key character varying(128) NOT NULL,
    params jsonb NOT NULL,
    table_id integer,
    created_at timestamp with time zone NOT NULL,
    delivered boolean NOT NULL,
    account_id integer NOT NULL
);


--
-- Name: TABLE inbox_item; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.inbox_item IS 'A message kept for an account: a tell while offline, a whisper, table news.';


--
-- Name: inbox_item_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.inbox_item_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: inbox_item_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.inbox_item_id_seq OWNED BY public.inbox_item.id;


--
-- Name: seat; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.seat (
    id integer NOT NULL,
    number integer NOT NULL,
    bot_level character varying(16),
    name character varying(32) NOT NULL,
    account_id integer,
    table_id integer NOT NULL
);


--
-- Name: seat_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.seat_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: seat_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.seat_id_seq OWNED BY public.seat.id;


--
-- Name: ssh_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ssh_key (
    id integer NOT NULL,
    algorithm character varying(64) NOT NULL,
    key_data text NOT NULL,
    comment character varying(255) NOT NULL,
    fingerprint character varying(128) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    account_id integer NOT NULL
);


--
-- Name: ssh_key_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.ssh_key_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: ssh_key_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.ssh_key_id_seq OWNED BY public.ssh_key.id;


--
-- Name: account id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account ALTER COLUMN id SET DEFAULT nextval('public.account_id_seq'::regclass);


--
-- Name: action_log id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.action_log ALTER COLUMN id SET DEFAULT nextval('public.action_log_id_seq'::regclass);


--
-- Name: ban id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ban ALTER COLUMN id SET DEFAULT nextval('public.ban_id_seq'::regclass);


--
-- Name: game_table id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_table ALTER COLUMN id SET DEFAULT nextval('public.game_table_id_seq'::regclass);


--
-- Name: inbox_item id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.inbox_item ALTER COLUMN id SET DEFAULT nextval('public.inbox_item_id_seq'::regclass);


--
-- Name: seat id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seat ALTER COLUMN id SET DEFAULT nextval('public.seat_id_seq'::regclass);


--
-- Name: ssh_key id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ssh_key ALTER COLUMN id SET DEFAULT nextval('public.ssh_key_id_seq'::regclass);


--
-- Data for Name: account; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.account VALUES (1, 'Анна', 'ahha', '$argon2id$v=19$m=19456,t=2,p=1$c706yH8cI92NhoVWaBGNlg$ny6ni92QPaVSNagffBHlSm6HRVi8BM06N9lGF8zDCpE', 'player', 'ru', 'utf-8', NULL, NULL, '2026-12-01 17:25:00.537696+00', '2026-12-01 17:25:00.716268+00', NULL);
INSERT INTO public.account VALUES (2, 'Борис', 'бopиc', '$argon2id$v=19$m=19456,t=2,p=1$0Iu6rJb/eZKhg/jyATskzA$StZx1tGHoa71xJsBlC8mRVdjXFbKoUOuCJ4pwUByjdc', 'player', 'ru', 'utf-8', NULL, NULL, '2026-12-01 17:25:01.428359+00', '2026-12-01 17:25:01.49199+00', NULL);


--
-- Data for Name: action_log; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.action_log VALUES (1, 1, 0, '{"card": 4, "type": "bid"}', 'player', '2026-12-01 17:25:02.596976+00', 1);
INSERT INTO public.action_log VALUES (2, 2, 1, '{"card": 7, "type": "bid"}', 'player', '2026-12-01 17:25:02.659869+00', 1);
INSERT INTO public.action_log VALUES (3, 3, 0, '{"card": 7, "type": "bid"}', 'player', '2026-12-01 17:25:02.711901+00', 1);


--
-- Data for Name: ban; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: game_table; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.game_table VALUES (1, 'bids', '{"rounds": 3, "seconds": 600}', 3547878046915874612, 'Анна', 'running', 2, '2026-12-01 17:35:02.65677+00', 3, NULL, NULL, NULL, NULL, '2026-12-01 17:25:02.39947+00', '2026-12-01 17:25:02.521064+00', NULL);


--
-- Data for Name: inbox_item; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: seat; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.seat VALUES (1, 0, NULL, 'Анна', 1, 1);
INSERT INTO public.seat VALUES (2, 1, NULL, 'Борис', 2, 1);


--
-- Data for Name: ssh_key; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Name: account_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.account_id_seq', 2, true);


--
-- Name: action_log_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.action_log_id_seq', 3, true);


--
-- Name: ban_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.ban_id_seq', 1, false);


--
-- Name: game_table_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.game_table_id_seq', 1, true);


--
-- Name: inbox_item_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.inbox_item_id_seq', 1, false);


--
-- Name: seat_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.seat_id_seq', 2, true);


--
-- Name: ssh_key_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.ssh_key_id_seq', 1, false);


--
-- Name: account account_name_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account
    ADD CONSTRAINT account_name_key_key UNIQUE (name_key);


--
-- Name: account account_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account
    ADD CONSTRAINT account_pkey PRIMARY KEY (id);


--
-- Name: action_log action_log_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.action_log
    ADD CONSTRAINT action_log_pkey PRIMARY KEY (id);


--
-- Name: ban ban_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ban
    ADD CONSTRAINT ban_pkey PRIMARY KEY (id);


--
-- Name: game_table game_table_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_table
    ADD CONSTRAINT game_table_pkey PRIMARY KEY (id);


--
-- Name: inbox_item inbox_item_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.inbox_item
    ADD CONSTRAINT inbox_item_pkey PRIMARY KEY (id);


--
-- Name: seat seat_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seat
    ADD CONSTRAINT seat_pkey PRIMARY KEY (id);


--
-- Name: ssh_key ssh_key_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ssh_key
    ADD CONSTRAINT ssh_key_pkey PRIMARY KEY (id);


--
-- Name: action_log uid_action_log_table_i_a2edc8; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.action_log
    ADD CONSTRAINT uid_action_log_table_i_a2edc8 UNIQUE (table_id, step);


--
-- Name: seat uid_seat_table_i_ee6344; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seat
    ADD CONSTRAINT uid_seat_table_i_ee6344 UNIQUE (table_id, number);


--
-- Name: action_log action_log_table_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.action_log
    ADD CONSTRAINT action_log_table_id_fkey FOREIGN KEY (table_id) REFERENCES public.game_table(id) ON DELETE CASCADE;


--
-- Name: inbox_item inbox_item_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.inbox_item
    ADD CONSTRAINT inbox_item_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.account(id) ON DELETE CASCADE;


--
-- Name: seat seat_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seat
    ADD CONSTRAINT seat_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.account(id) ON DELETE SET NULL;


--
-- Name: seat seat_table_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seat
    ADD CONSTRAINT seat_table_id_fkey FOREIGN KEY (table_id) REFERENCES public.game_table(id) ON DELETE CASCADE;


--
-- Name: ssh_key ssh_key_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ssh_key
    ADD CONSTRAINT ssh_key_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.account(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--


