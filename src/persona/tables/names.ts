/**
 * Given names and family names by naming culture. Each country in `places.ts` names the culture
 * its residents' names are drawn from, so a Lagos accountant is not called Hans Müller.
 * Non-binary personas draw from the `unisex` list of their culture.
 */
export interface NameCulture {
  women: readonly string[];
  men: readonly string[];
  unisex: readonly string[];
  family: readonly string[];
  /** True when the family name is written first (e.g. Chinese, Korean, Japanese). */
  familyFirst: boolean;
}

/** Splits a comma-separated name list (names may contain spaces: "Xiu Ying", "de Vries"). */
function list(text: string): readonly string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

export const NAME_CULTURES = {
  anglo: {
    women: list(`
      Emily, Hannah, Olivia, Grace, Sarah, Megan, Rachel, Laura, Chloe, Abigail, Natalie, Claire,
      Rebecca, Lucy, Fiona, Heather, Molly, Amy, Katherine, Bethany, Victoria, Jessica, Holly,
      Diane, Joanne, Brenda, Carol, Margaret, Sophie, Eleanor
    `),
    men: list(`
      James, Oliver, Thomas, Daniel, Matthew, Ryan, Andrew, Benjamin, Nathan, Samuel, Jacob,
      Ethan, Connor, Liam, Gareth, Harry, Michael, David, Peter, Graham, Owen, Logan, Tyler,
      Dylan, Gordon, Russell, Stuart, Kevin, Brian, Patrick
    `),
    unisex: list(`
      Jordan, Taylor, Morgan, Casey, Riley, Avery, Quinn, Rowan, Jamie, Alex, Sam, Robin,
      Charlie, Skyler, Reese
    `),
    family: list(`
      Smith, Johnson, Brown, Taylor, Wilson, Davies, Evans, Thompson, Walker, Wright, Robinson,
      Hughes, Edwards, Green, Hall, Wood, Harris, Clarke, Turner, Parker, Cooper, Morris,
      Bennett, Collins, Foster, Murphy, Reynolds, Sullivan, Campbell, Fletcher, Hayes, Barnes,
      Palmer, Bishop, Lawson, Mitchell
    `),
    familyFirst: false,
  },
  hispanic: {
    women: list(`
      Sofía, Valentina, Camila, Lucía, María, Isabela, Gabriela, Daniela, Fernanda, Paula,
      Carmen, Rosa, Elena, Adriana, Mariana, Ximena, Renata, Alejandra, Beatriz, Julieta, Lorena,
      Patricia, Marisol, Inés, Pilar
    `),
    men: list(`
      Mateo, Santiago, Diego, Alejandro, Carlos, Javier, Miguel, Andrés, Luis, Jorge, Rafael,
      Emilio, Pablo, Fernando, Ricardo, Tomás, Sergio, Héctor, Joaquín, Raúl, Gustavo, Eduardo,
      Iván, Rodrigo, Manuel
    `),
    unisex: list(`
      Ariel, Guadalupe, Cruz, Reyes, Noa, Alex, Ale, Dani, Sasha, Fran
    `),
    family: list(`
      García, Martínez, López, Hernández, González, Pérez, Sánchez, Ramírez, Torres, Flores,
      Rivera, Gómez, Díaz, Morales, Ortiz, Castillo, Jiménez, Ruiz, Vargas, Mendoza, Romero,
      Navarro, Herrera, Medina, Aguilar, Castro, Silva, Rojas, Molina, Delgado
    `),
    familyFirst: false,
  },
  lusophone: {
    women: list(`
      Ana, Beatriz, Larissa, Juliana, Fernanda, Letícia, Mariana, Camila, Bruna, Aline, Tatiane,
      Renata, Luana, Giovanna, Raquel, Vitória, Yasmin, Débora, Helena, Cecília
    `),
    men: list(`
      João, Pedro, Lucas, Gabriel, Rafael, Thiago, Felipe, Gustavo, Bruno, Rodrigo, Vinícius,
      Caio, Marcelo, Leonardo, Henrique, Diogo, Fábio, André, Otávio, Paulo
    `),
    unisex: list(`
      Juca, Cris, Dani, Alex, Ariel, Sam, Gabi, Rafa
    `),
    family: list(`
      Silva, Santos, Oliveira, Souza, Rodrigues, Ferreira, Alves, Pereira, Lima, Gomes, Costa,
      Ribeiro, Martins, Carvalho, Almeida, Lopes, Soares, Fernandes, Vieira, Barbosa, Rocha,
      Dias, Nascimento, Moreira, Cardoso
    `),
    familyFirst: false,
  },
  germanic: {
    women: list(`
      Anna, Lena, Marie, Sophie, Katharina, Julia, Laura, Lea, Hannah, Johanna, Clara, Greta,
      Franziska, Sabine, Petra, Ingrid, Ursula, Anja, Miriam, Jana, Femke, Sanne, Lotte, Astrid,
      Maren
    `),
    men: list(`
      Lukas, Jonas, Felix, Maximilian, Leon, Paul, Tobias, Florian, Sebastian, Matthias, Stefan,
      Andreas, Jürgen, Klaus, Dieter, Niklas, Moritz, Jan, Daan, Bram, Sven, Lars, Henrik, Jens,
      Wolfgang
    `),
    unisex: list(`
      Kim, Luca, Sascha, Robin, Toni, Kai, Eike, Noah, Charlie, Mika
    `),
    family: list(`
      Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Koch,
      Richter, Klein, Wolf, Neumann, Schwarz, Zimmermann, Braun, Krüger, Hartmann, de Vries,
      Jansen, Bakker, Visser, Lindqvist, Andersson, Nilsson, Hansen, Berg, Vogel
    `),
    familyFirst: false,
  },
  romance: {
    women: list(`
      Camille, Léa, Manon, Chloé, Inès, Juliette, Élise, Margaux, Giulia, Chiara, Francesca,
      Alessia, Martina, Sara, Valentina, Elisa, Aurélie, Céline, Nathalie, Isabelle, Federica,
      Ilaria, Océane, Noémie, Roberta
    `),
    men: list(`
      Louis, Hugo, Arthur, Jules, Théo, Antoine, Mathieu, Nicolas, Julien, Étienne, Lorenzo,
      Marco, Matteo, Giuseppe, Alessandro, Francesco, Davide, Riccardo, Stefano, Luca, Baptiste,
      Romain, Olivier, Vincenzo, Fabio
    `),
    unisex: list(`
      Camille, Dominique, Claude, Andrea, Sacha, Maxime, Gaby, Loïs, Simone, Eden
    `),
    family: list(`
      Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Laurent,
      Lefebvre, Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco,
      Bruno, Gallo, Conti, Fontaine, Chevalier, Mercier, Lombardi, Moretti
    `),
    familyFirst: false,
  },
  chinese: {
    women: list(`
      Mei, Xiu Ying, Li Na, Fang, Jing, Yan, Xiaoling, Hui, Ting, Yue, Lan, Qian, Wen, Xin, Ying,
      Shu Fen, Jia Hui, Yu Tong, Zi Han, Ruo Xi
    `),
    men: list(`
      Wei, Jun, Hao, Lei, Qiang, Ming, Jian, Tao, Yong, Bo, Chen, Zhi Wei, Hao Ran, Yu Hang,
      Zi Xuan, Jun Jie, Guo Qiang, Jian Hua, Kai, Peng
    `),
    unisex: list(`
      Yi, An, Xin, Ling, Chen, Yu, Ning, Qing, Rui, Jie
    `),
    family: list(`
      Wang, Li, Zhang, Liu, Chen, Yang, Huang, Zhao, Wu, Zhou, Xu, Sun, Ma, Zhu, Hu, Guo, He,
      Lin, Gao, Luo, Zheng, Liang, Xie, Song, Tang, Han, Feng, Deng, Cao, Peng
    `),
    familyFirst: true,
  },
  east_asian: {
    women: list(`
      Yuki, Haruka, Aoi, Sakura, Misaki, Yui, Naoko, Keiko, Emi, Rina, Ji-woo, Seo-yeon, Min-ji,
      Ha-eun, Soo-ah, Eun-ji, Yeon-hee, Da-eun, Hye-jin, Su-bin
    `),
    men: list(`
      Haruto, Sota, Ren, Takumi, Kenji, Hiroshi, Daiki, Kaito, Yuto, Shota, Min-jun, Seo-jun,
      Ji-ho, Do-yun, Hyun-woo, Jae-won, Sung-min, Dong-hyun, Tae-yang, Joon-ho
    `),
    unisex: list(`
      Hikaru, Makoto, Akira, Nao, Ji-an, Ha-neul, Yu-jin, Min, Sora, Rei
    `),
    family: list(`
      Sato, Suzuki, Takahashi, Tanaka, Watanabe, Ito, Yamamoto, Nakamura, Kobayashi, Kato,
      Yoshida, Yamada, Sasaki, Matsumoto, Inoue, Kim, Lee, Park, Choi, Jung, Kang, Cho, Yoon,
      Jang, Lim, Han, Shin, Seo, Kwon, Hwang
    `),
    familyFirst: true,
  },
  south_asian: {
    women: list(`
      Priya, Ananya, Aisha, Kavya, Divya, Pooja, Neha, Sneha, Meera, Lakshmi, Shreya, Riya, Isha,
      Nandini, Sunita, Radhika, Fatima, Zara, Anjali, Deepa, Farah, Nisha, Tanvi, Sana, Rekha
    `),
    men: list(`
      Arjun, Rahul, Vikram, Aditya, Rohan, Karan, Sanjay, Amit, Rajesh, Suresh, Imran, Farhan,
      Nikhil, Varun, Siddharth, Manish, Ravi, Anil, Harish, Kunal, Omar, Ayaan, Dev, Pranav,
      Tariq
    `),
    unisex: list(`
      Kiran, Sasha, Jyoti, Noor, Arya, Shiva, Amal, Sandeep, Anu, Ira
    `),
    family: list(`
      Sharma, Patel, Singh, Kumar, Gupta, Reddy, Iyer, Nair, Mehta, Joshi, Desai, Chopra, Khan,
      Malhotra, Rao, Verma, Bose, Chatterjee, Kapoor, Pillai, Menon, Agarwal, Bhatt, Saxena,
      Qureshi, Hussain, Das, Mishra, Kulkarni, Banerjee
    `),
    familyFirst: false,
  },
  west_african: {
    women: list(`
      Chiamaka, Ngozi, Adaeze, Funmilayo, Yetunde, Amina, Aisha, Abena, Akosua, Efua, Ifeoma,
      Folake, Zainab, Kemi, Blessing, Esther, Nneka, Halima, Temitope, Adwoa
    `),
    men: list(`
      Chinedu, Emeka, Oluwaseun, Tunde, Kwame, Kofi, Yaw, Ibrahim, Musa, Obinna, Chukwuma,
      Babajide, Segun, Kwabena, Nnamdi, Femi, Abdullahi, Kelechi, Yusuf, Kojo
    `),
    unisex: list(`
      Tobi, Ayo, Dami, Kemi, Sade, Ola, Femi, Nana, Tosin, Ebi
    `),
    family: list(`
      Okafor, Adeyemi, Okonkwo, Balogun, Mensah, Owusu, Boateng, Eze, Nwosu, Adebayo, Bello,
      Ogunleye, Asante, Appiah, Danjuma, Ibekwe, Oyelaran, Abubakar, Addo, Osei, Chukwu, Afolabi,
      Nwachukwu, Ogundipe, Quaye
    `),
    familyFirst: false,
  },
  arabic: {
    women: list(`
      Fatima, Layla, Mariam, Nour, Salma, Yasmin, Hana, Rania, Dina, Lina, Amira, Huda, Samira,
      Reem, Jana, Zeynep, Elif, Ayşe, Leila, Nadia
    `),
    men: list(`
      Mohammed, Ahmed, Omar, Youssef, Khaled, Hassan, Ali, Karim, Tarek, Mahmoud, Samir, Ibrahim,
      Mustafa, Emre, Mehmet, Burak, Hamza, Nabil, Walid, Rami
    `),
    unisex: list(`
      Nour, Salam, Jihan, Iman, Noor, Rayan, Sami, Deniz, Ece, Wafa
    `),
    family: list(`
      Haddad, Khoury, Nasser, Saleh, Mansour, Hamdan, Aziz, Farouk, Karam, Sabbagh, El-Amin,
      Darwish, Yilmaz, Kaya, Demir, Şahin, Çelik, Aydın, Öztürk, Arslan, Barakat, Hijazi, Najjar,
      Qasim, Suleiman
    `),
    familyFirst: false,
  },
} as const satisfies Record<string, NameCulture>;

export type NameCultureId = keyof typeof NAME_CULTURES;
